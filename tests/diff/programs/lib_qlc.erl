%% Checks: query list comprehensions (qlc.hrl): qlc:e/1 over ets:table/1,2 (first_next, last_prev, select), lists, qlc:table/2 with a traverse fun and a continuation, nested handles, two generators, filters, generator patterns that filter, the unique option, qlc:fold/3, cursors, qlc:append/1 and qlc:sort/1 of a query; bad options raise badarg.
-module(lib_qlc).
-include_lib("stdlib/include/qlc.hrl").
-export([main/0]).

main() ->
    T = ets:new(t, [ordered_set]),
    ets:insert(T, [{1, a}, {2, b}, {3, a}, {4, c}]),
    io:format("~p~n", [qlc:e(qlc:q([K || {K, a} <- ets:table(T)]))]),
    io:format("~p~n", [qlc:e(qlc:q([{K, V} || {K, V} <- ets:table(T), K > 1]))]),
    io:format("~p~n", [qlc:e(qlc:q([K || {K, _} <- ets:table(T, [{traverse, last_prev}])]))]),
    io:format("~p~n", [qlc:e(qlc:q([V || {_, V} <- ets:table(T, {traverse, select})]))]),
    io:format("~p~n", [qlc:e(qlc:q([{X, Y} || X <- [1, 2, 3], Y <- [a, b], X =/= 2]))]),
    io:format("~p~n", [qlc:e(qlc:q([V || {_, V} <- ets:table(T)], [unique]))]),
    io:format("~p~n", [qlc:e(qlc:q([V || {_, V} <- ets:table(T)], {unique, false}))]),
    H = qlc:q([K || {K, _} <- ets:table(T)]),
    io:format("~p~n", [qlc:e(qlc:q([K * 10 || K <- H, K rem 2 =:= 0]))]),
    Cont = fun() -> [x, y | fun() -> [z] end] end,
    io:format("~p~n", [qlc:e(qlc:q([{A} || A <- qlc:table(Cont, [])]))]),
    io:format("~p~n", [qlc:fold(fun(X, Acc) -> X + Acc end, 0, qlc:q([K || {K, _} <- ets:table(T)]))]),
    C = qlc:cursor(qlc:q([K || {K, _} <- ets:table(T)])),
    io:format("~p~n", [qlc:next_answers(C, 3)]),
    io:format("~p~n", [qlc:next_answers(C, 3)]),
    ok = qlc:delete_cursor(C),
    io:format("~p~n", [qlc:e(qlc:append([qlc:q([K || {K, a} <- ets:table(T)]), [z]]))]),
    io:format("~p~n", [qlc:e(qlc:sort(qlc:q([V || {_, V} <- ets:table(T)])))]),
    ets:insert(T, {5, a}),
    io:format("~p~n", [qlc:e(H)]),
    io:format("~p~n", [try ets:table(T, [{traverse, sideways}]) catch error:E -> E end]),
    ok.
