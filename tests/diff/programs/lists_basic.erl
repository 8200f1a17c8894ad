%% Checks: lists:reverse, nth, nthtail, last, seq (with step), sum, max, min, member, append/1,2, flatten, duplicate, sublist/2,3, split, delete, subtract.
-module(lists_basic).
-export([main/0]).

main() ->
    L = [5, 3, 8, 1, 9, 2],
    io:format("~p~n", [lists:reverse(L)]),
    io:format("~p~n", [lists:reverse([1, 2], [3, 4])]),
    io:format("~p ~p ~p~n", [lists:nth(1, L), lists:nth(6, L), lists:last(L)]),
    io:format("~p~n", [lists:nthtail(4, L)]),
    io:format("~p~n", [lists:seq(1, 10, 3)]),
    io:format("~p~n", [lists:seq(10, 1, -4)]),
    io:format("~p~n", [lists:seq(5, 4)]),
    io:format("~p ~p ~p~n", [lists:sum(L), lists:max(L), lists:min(L)]),
    io:format("~p~n", [lists:max([1, a, "s", {t}])]),
    io:format("~p ~p~n", [lists:member(8, L), lists:member(7, L)]),
    io:format("~p~n", [lists:append([[1], [2, 3], [], [4]])]),
    io:format("~p~n", [lists:append("ab", "cd")]),
    io:format("~p~n", [lists:flatten([1, [2, [3, [4]], []], [[[5]]]])]),
    io:format("~p~n", [lists:flatten([a, [b]], [c])]),
    io:format("~p~n", [lists:duplicate(3, xy)]),
    io:format("~p ~p~n", [lists:sublist(L, 2), lists:sublist(L, 2, 3)]),
    io:format("~p~n", [lists:sublist(L, 5, 10)]),
    io:format("~p~n", [lists:split(2, L)]),
    io:format("~p~n", [lists:delete(8, L)]),
    io:format("~p~n", [lists:subtract([1, 2, 1, 3], [1])]),
    io:format("~p~n", [lists:sum([1, 2.5])]),
    io:format("~p~n", [lists:concat([abc, "-", 12, $x, 1.5])]),
    Errs = [try F() catch error:R -> R end
            || F <- [fun() -> lists:nth(0, L) end, fun() -> lists:last([]) end,
                     fun() -> lists:split(10, L) end, fun() -> lists:max([]) end,
                     fun() -> lists:seq(1, 5, 0) end]],
    io:format("~p~n", [Errs]),
    lists:prefix([5, 3], L) andalso lists:suffix([9, 2], L).
