%% Checks: higher-order lists functions: map, filter, foldl, foldr, foreach, all, any, mapfoldl, zipwith, filtermap, flatmap, dropwhile, takewhile, partition.
-module(fun_higher_order).
-export([main/0]).

main() ->
    L = lists:seq(1, 10),
    io:format("~p~n", [lists:map(fun(X) -> X * X end, L)]),
    io:format("~p~n", [lists:filter(fun(X) -> X rem 3 =:= 0 end, L)]),
    io:format("~p~n", [lists:foldl(fun(X, Acc) -> [X | Acc] end, [], [a, b, c])]),
    io:format("~p~n", [lists:foldr(fun(X, Acc) -> [X | Acc] end, [], [a, b, c])]),
    io:format("~p~n", [lists:foldl(fun(X, Acc) -> Acc - X end, 0, L)]),
    io:format("~p~n", [lists:foldr(fun(X, Acc) -> X - Acc end, 0, L)]),
    lists:foreach(fun(X) -> io:format("item ~p~n", [X]) end, [x, y]),
    io:format("~p ~p~n", [lists:all(fun(X) -> X > 0 end, L), lists:any(fun(X) -> X > 9 end, L)]),
    io:format("~p ~p~n", [lists:all(fun(_) -> false end, []), lists:any(fun(_) -> true end, [])]),
    io:format("~p~n", [lists:mapfoldl(fun(X, S) -> {X * 2, S + X} end, 0, [1, 2, 3])]),
    io:format("~p~n", [lists:mapfoldr(fun(X, S) -> {{X, S}, S + 1} end, 0, [a, b, c])]),
    io:format("~p~n", [lists:zipwith(fun(A, B) -> A * B end, [1, 2, 3], [4, 5, 6])]),
    io:format("~p~n", [lists:filtermap(fun(X) when X > 5 -> {true, X * 10}; (X) -> X =:= 1 end, L)]),
    io:format("~p~n", [lists:flatmap(fun(X) -> [X, X] end, [1, 2])]),
    io:format("~p~n", [lists:dropwhile(fun(X) -> X < 4 end, L)]),
    io:format("~p~n", [lists:takewhile(fun(X) -> X < 4 end, L)]),
    io:format("~p~n", [lists:partition(fun(X) -> X rem 2 =:= 0 end, L)]),
    io:format("~p~n", [lists:splitwith(fun(X) -> X < 3 end, L)]),
    lists:foldl(fun(F, Acc) -> F(Acc) end, 1, [fun(X) -> X + 1 end, fun(X) -> X * 10 end]).
