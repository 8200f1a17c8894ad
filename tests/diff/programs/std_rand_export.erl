%% Checks: OTP's rand: export_seed_s/seed round trip, uniform_real_s, bytes_s (OTP 24+), and default algorithm name from a seed.
-module(std_rand_export).
-export([main/0]).
main() ->
    S = rand:seed_s(exsss, 42),
    E = rand:export_seed_s(S),
    {X, _} = rand:uniform_s(S),
    {Y, _} = rand:uniform_s(rand:seed_s(E)),
    io:format("~p~n", [X =:= Y]),
    {R, _} = rand:uniform_real_s(rand:seed_s(exro928ss, 7)),
    io:format("~.10f~n", [R]),
    {B, _} = rand:bytes_s(6, rand:seed_s(exsss, 5)),
    io:format("~p~n", [B]),
    io:format("~p~n", [element(1, element(1, rand:seed_s(exsp, 1)))]),
    {L, _} = lists:mapfoldl(fun(_, St) -> rand:uniform_s(6, St) end, rand:seed_s(exsss, 99), lists:seq(1, 10)),
    io:format("~p~n", [L]),
    ok.
