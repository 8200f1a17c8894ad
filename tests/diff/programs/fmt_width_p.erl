%% Checks: ~p with explicit line length (~40p, ~*p), indentation after a prefix on the same line, ~lp (no string detection).
-module(fmt_width_p).
-export([main/0]).

main() ->
    T = [{alpha, 1}, {beta, 2}, {gamma, 3}, {delta, 4}, {epsilon, 5}],
    io:format("~40p~n", [T]),
    io:format("~*p~n", [30, T]),
    io:format("result => ~p~n", [T]),
    io:format("~20p~n", [lists:seq(1, 15)]),
    io:format("~lp~n", [["abc", [104, 105]]]),
    io:format("~p~n", [[{key, "a string value that is fairly long"}, {other_key, "another fairly long string"}]]),
    io:format("~p~n", [{a, [{b, [{c, [{d, [{e, lists:seq(1, 20)}]}]}]}]}]),
    ok.
