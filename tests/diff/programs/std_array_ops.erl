%% Checks: OTP's array from source: fixed and growing arrays, defaults, sparse folds, resize, relax/fix, errors.
-module(std_array_ops).
-export([main/0]).
main() ->
    A = array:set(5, x, array:new()),
    io:format("~p ~p ~p~n", [array:size(A), array:get(2, A), array:get(5, A)]),
    io:format("~p~n", [array:sparse_to_orddict(A)]),
    F = array:new(3, [{default, 0}, fixed]),
    R = try array:set(3, y, F) catch error:E -> E end,
    io:format("~p ~p~n", [array:to_list(F), R]),
    io:format("~p~n", [array:to_list(array:resize(5, F))]),
    G = array:relax(F),
    io:format("~p~n", [array:size(array:set(10, q, G))]),
    io:format("~p~n", [array:foldl(fun(I, V, Acc) -> [{I, V} | Acc] end, [], array:from_list([a, b]))]),
    io:format("~p~n", [array:sparse_foldr(fun(I, V, Acc) -> [{I, V} | Acc] end, [], A)]),
    io:format("~p~n", [array:to_list(array:map(fun(I, V) -> I + V end, array:from_list([10, 20])))]),
    ok.
