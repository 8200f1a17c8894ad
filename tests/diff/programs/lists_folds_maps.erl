%% Checks: OTP's lists: foldl/foldr order, mapfoldl/mapfoldr, filtermap, flatmap, foreach side effects.
-module(lists_folds_maps).
-export([main/0]).
main() ->
    io:format("~p~n", [lists:foldl(fun(X, A) -> [X | A] end, [], [1, 2, 3])]),
    io:format("~p~n", [lists:foldr(fun(X, A) -> [X | A] end, [], [1, 2, 3])]),
    io:format("~p~n", [lists:mapfoldl(fun(X, S) -> {X * 2, S + X} end, 0, [1, 2, 3])]),
    io:format("~p~n", [lists:mapfoldr(fun(X, S) -> {{X, S}, S + 1} end, 0, [a, b, c])]),
    io:format("~p~n", [lists:filtermap(fun(X) when X > 2 -> {true, X * 10}; (X) -> X =:= 1 end, [1, 2, 3, 4])]),
    io:format("~p~n", [lists:flatmap(fun(X) -> [X, X] end, [a, b])]),
    lists:foreach(fun(X) -> io:format("item ~p~n", [X]) end, [x, y]),
    io:format("~p ~p~n", [lists:all(fun is_atom/1, [a, b]), lists:any(fun is_integer/1, [a, b])]),
    ok.
