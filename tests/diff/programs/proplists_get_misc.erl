%% Checks: OTP's proplists on tuples longer than two, booleans, get_value with atoms as true, delete of all matches.
-module(proplists_get_misc).
-export([main/0]).
main() ->
    L = [{a, 1, extra}, b, {c, false}, {a, 2}],
    io:format("~p ~p~n", [proplists:get_value(a, L), proplists:lookup(a, L)]),
    io:format("~p ~p~n", [proplists:get_bool(b, L), proplists:get_bool(c, L)]),
    io:format("~p~n", [proplists:delete(a, L)]),
    io:format("~p~n", [proplists:get_all_values(a, L)]),
    io:format("~p~n", [proplists:normalize([{x, true}, y], [])]),
    ok.
