%% Checks: atomics: signed and unsigned arrays, add_get/sub_get/exchange/compare_exchange, info, range errors.
-module(world_atomics).
-export([main/0]).
main() ->
    A = atomics:new(2, []),
    io:format("~p ~p~n", [atomics:add_get(A, 1, 10), atomics:sub_get(A, 1, 3)]),
    io:format("~p ~p~n", [atomics:exchange(A, 1, 100), atomics:get(A, 1)]),
    io:format("~p ~p~n", [atomics:compare_exchange(A, 2, 0, 5), atomics:compare_exchange(A, 2, 0, 6)]),
    io:format("~p~n", [atomics:info(A)]),
    U = atomics:new(1, [{signed, false}]),
    io:format("~p~n", [atomics:sub_get(U, 1, 1)]),
    io:format("~p~n", [atomics:info(U)]),
    R = try atomics:put(U, 1, -1) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok = atomics:put(A, 1, -9223372036854775808), ok = atomics:sub(A, 1, 1),
    io:format("~p~n", [atomics:get(A, 1)]),
    ok.
