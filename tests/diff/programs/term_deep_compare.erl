%% Checks: comparisons of nested structures, lists:sort on records/tuples of mixed types, equality on large structures, max/min of mixed terms.
-module(term_deep_compare).
-export([main/0]).

main() ->
    A = {user, "ann", [1, 2, {x, 3}], #{k => [v]}},
    B = {user, "ann", [1, 2, {x, 3}], #{k => [v]}},
    C = {user, "ann", [1, 2, {x, 4}], #{k => [v]}},
    io:format("~p ~p ~p~n", [A == B, A =:= B, A < C]),
    io:format("~p~n", [lists:sort([{2, a}, {1, b}, {1, a}, {1}, {0, 0, 0}])]),
    io:format("~p~n", [lists:sort([[1, 2], [1], [1, 1, 1], [0, 9], []])]),
    io:format("~p~n", [lists:sort([#{b => 1}, #{a => 2}, #{a => 1, b => 1}, #{a => 1}])]),
    io:format("~p~n", [lists:sort([<<1, 2>>, <<1>>, <<0, 255>>, <<1:1>>, <<128:8>>])]),
    io:format("~p~n", [lists:sort([1.5, 1, 2, 1.0, 0.99999])]),
    io:format("~p~n", [lists:sort([-1 bsl 70, 1 bsl 70, 0, -1.0e30, 1.0e30])]),
    io:format("~p~n", [lists:max([[], {}, a, 1, #{}, <<>>])]),
    io:format("~p~n", [lists:min([[], {}, a, 1, #{}, <<>>])]),
    io:format("~p~n", [{1, 2} == {1.0, 2.0}]),
    io:format("~p~n", [[1 | 2] < [1, 2]]),
    io:format("~p~n", [lists:sort([#{1 => a}, #{1.0 => a}])]),
    io:format("~p~n", [lists:usort([#{a => 1}, #{a => 1}, #{a => 1.0}])]),
    Big = lists:seq(1, 10000),
    Big =:= lists:seq(1, 10000).
