%% Checks: lists:sort, sort/2 with custom order, usort, keysort (stable), ukeysort, merge, umerge, sort of mixed types and tuples.
-module(lists_sort).
-export([main/0]).

main() ->
    io:format("~p~n", [lists:sort([3, 1, 2, 3, 1])]),
    io:format("~p~n", [lists:sort(fun(A, B) -> A >= B end, [3, 1, 2])]),
    io:format("~p~n", [lists:usort([b, a, c, a, b])]),
    io:format("~p~n", [lists:usort(fun(A, B) -> abs(A) =< abs(B) end, [-2, 1, 2, -1, 3])]),
    People = [{bob, 25}, {ann, 30}, {cid, 25}, {dee, 30}, {eve, 20}],
    io:format("~p~n", [lists:keysort(2, People)]),
    io:format("~p~n", [lists:keysort(1, People)]),
    io:format("~p~n", [lists:ukeysort(2, People)]),
    io:format("~p~n", [lists:merge([1, 4, 7], [2, 3, 8])]),
    io:format("~p~n", [lists:umerge([1, 2, 4], [2, 3, 4])]),
    io:format("~p~n", [lists:merge([[1, 5], [2, 6], [3, 4]])]),
    io:format("~p~n", [lists:sort([{b, 1}, {a, 2}, {a, 1, x}, {a, 1}])]),
    io:format("~p~n", [lists:sort(["banana", "apple", "cherry", "app"])]),
    io:format("~p~n", [lists:sort([<<"b">>, <<"a">>, <<"ab">>, <<>>])]),
    io:format("~p~n", [lists:sort([3.0, 3, 2.5, -1, -1.0])]),
    Big = [(X * 7919) rem 1000 || X <- lists:seq(1, 500)],
    Sorted = lists:sort(Big),
    io:format("~p ~p ~p~n", [hd(Sorted), lists:last(Sorted), length(lists:usort(Big))]),
    lists:reverse(lists:sort(fun({_, A}, {_, B}) -> A =< B end, People)).
