%% Checks: OTP's proplists: expand, normalize with aliases/negations, compact, substitute_*, split, to_map/from_map.
-module(proplists_expand_normalize).
-export([main/0]).
main() ->
    L = [a, {b, 1}, no_c, {d, 2}],
    io:format("~p~n", [proplists:expand([{a, [x, {y, 1}]}], L)]),
    io:format("~p~n", [proplists:substitute_aliases([{a, alpha}], L)]),
    io:format("~p~n", [proplists:substitute_negations([{no_c, c}], L)]),
    io:format("~p~n", [proplists:normalize(L, [{aliases, [{d, delta}]}, {negations, [{no_c, c}]}])]),
    io:format("~p~n", [proplists:compact([{a, true}, {b, false}])]),
    io:format("~p~n", [proplists:split([{c, 2}, {e, 1}, {c, 1}, f], [c, e])]),
    io:format("~p~n", [proplists:to_map([a, {b, 2}, {a, false}])]),
    io:format("~p~n", [lists:sort(proplists:from_map(#{x => 1}))]),
    ok.
