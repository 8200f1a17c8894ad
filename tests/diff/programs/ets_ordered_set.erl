%% Checks: ordered_set: tab2list in key order, first/next/last/prev, '$end_of_table', key equality uses == (1 and 1.0 same key).
-module(ets_ordered_set).
-export([main/0]).

walk(_T, '$end_of_table', Acc) -> lists:reverse(Acc);
walk(T, K, Acc) -> walk(T, ets:next(T, K), [K | Acc]).

main() ->
    T = ets:new(ordered, [ordered_set]),
    ets:insert(T, [{5, e}, {1, a}, {3, c}, {b, atom}, {"s", str}, {{t}, tup}]),
    io:format("~p~n", [ets:tab2list(T)]),
    io:format("~p ~p~n", [ets:first(T), ets:last(T)]),
    io:format("~p~n", [walk(T, ets:first(T), [])]),
    io:format("~p ~p~n", [ets:next(T, 3), ets:prev(T, 3)]),
    io:format("~p~n", [ets:next(T, 4)]),
    io:format("~p~n", [ets:next(T, "s")]),
    ets:insert(T, {1.0, float_one}),
    io:format("~p~n", [ets:lookup(T, 1)]),
    io:format("~p~n", [ets:info(T, size)]),
    Empty = ets:new(empty, [ordered_set]),
    io:format("~p ~p~n", [ets:first(Empty), ets:last(Empty)]),
    ets:insert(T, [{N, n} || N <- [100, 50, 75]]),
    io:format("~p~n", [[K || {K, _} <- ets:tab2list(T), is_integer(K) orelse is_float(K)]]),
    ets:info(T, type).
