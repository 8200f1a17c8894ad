%% Checks: OTP's rand from source with explicit seeds: the same numbers as the BEAM for exsss, exro928ss and exs1024s; uniform ranges; normal.
-module(std_rand_seeded).
-export([main/0]).
main() ->
    S0 = rand:seed_s(exsss, {1, 2, 3}),
    {A, S1} = rand:uniform_s(100, S0), {B, S2} = rand:uniform_s(100, S1), {C, _} = rand:uniform_real_s(S2),
    io:format("~p ~p ~p~n", [A, B, C]),
    T0 = rand:seed_s(exro928ss, {7, 8, 9}),
    {D, _} = rand:uniform_s(1000000, T0),
    io:format("~p~n", [D]),
    _ = rand:seed(exs1024s, {4, 5, 6}),
    io:format("~p~n", [[rand:uniform(10) || _ <- lists:seq(1, 8)]]),
    {N, _} = rand:normal_s(rand:seed_s(exsss, {1, 1, 1})),
    io:format("~.6f~n", [N]),
    {J, _} = rand:jump(rand:seed_s(exsss, {3, 3, 3})),
    io:format("~p~n", [is_float(J)]),
    ok.
