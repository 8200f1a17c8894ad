%% Checks: OTP's lists: merge/merge3/umerge, usort with a fun, sort/2 stability, min/max, prefix/suffix.
-module(lists_merge_usort).
-export([main/0]).
main() ->
    io:format("~p~n", [lists:merge([1, 4, 7], [2, 5, 8])]),
    io:format("~p~n", [lists:merge3([1], [2], [0, 3])]),
    io:format("~p~n", [lists:umerge([1, 2, 3], [2, 3, 4])]),
    io:format("~p~n", [lists:usort(fun(A, B) -> abs(A) =< abs(B) end, [3, -3, 1, -1, 2])]),
    io:format("~p~n", [lists:sort(fun({A, _}, {B, _}) -> A =< B end, [{2, a}, {1, b}, {2, c}, {1, d}])]),
    io:format("~p ~p~n", [lists:prefix([1, 2], [1, 2, 3]), lists:suffix([3], [1, 2, 3])]),
    io:format("~p~n", [lists:merge(fun(A, B) -> A >= B end, [9, 5], [8, 1])]),
    ok.
