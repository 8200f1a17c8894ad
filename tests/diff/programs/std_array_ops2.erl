%% Checks: OTP's array: from_orddict, sparse_map, reset, default values, foldr order, is_array/is_fix, get beyond size.
-module(std_array_ops2).
-export([main/0]).
main() ->
    A = array:from_orddict([{0, a}, {3, d}], none),
    io:format("~p ~p~n", [array:to_list(A), array:default(A)]),
    io:format("~p~n", [array:sparse_to_list(array:sparse_map(fun(_, V) -> {V} end, A))]),
    io:format("~p~n", [array:to_list(array:reset(0, A))]),
    io:format("~p~n", [array:foldr(fun(I, V, Acc) -> [{I, V} | Acc] end, [], array:from_list([x, y]))]),
    io:format("~p ~p~n", [array:is_array(A), array:is_fix(array:fix(A))]),
    io:format("~p~n", [array:get(100, A)]),
    R = try array:get(-1, A) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
