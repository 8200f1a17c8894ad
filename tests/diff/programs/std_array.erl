%% Checks: array module: new with size/default, set/get, fixed vs extensible, to_list, sparse_to_orddict, foldl, resize, out-of-range badarg.
-module(std_array).
-export([main/0]).

main() ->
    A0 = array:new(5, {default, 0}),
    A1 = array:set(2, two, A0),
    io:format("~p~n", [array:to_list(A1)]),
    io:format("~p ~p~n", [array:get(2, A1), array:get(4, A1)]),
    io:format("~p~n", [array:size(A1)]),
    E = try array:set(10, x, A1) catch error:R -> R end,
    io:format("~p~n", [E]),
    X = array:relax(A1),
    X2 = array:set(7, seven, X),
    io:format("~p ~p~n", [array:size(X2), array:to_list(X2)]),
    io:format("~p~n", [array:sparse_to_orddict(X2)]),
    F = array:from_list([a, b, c]),
    io:format("~p~n", [array:foldl(fun(I, V, Acc) -> [{I, V} | Acc] end, [], F)]),
    io:format("~p~n", [array:to_list(array:map(fun(_, V) -> {V} end, F))]),
    io:format("~p~n", [array:to_list(array:resize(2, F))]),
    array:get(0, array:new()).
