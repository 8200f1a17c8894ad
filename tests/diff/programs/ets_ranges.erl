%% Checks: range queries on an ordered_set with tuple keys via select guards, ets:next from a non-member key, last/prev walking backwards.
-module(ets_ranges).
-export([main/0]).

back(_T, '$end_of_table', Acc) -> lists:reverse(Acc);
back(T, K, Acc) -> back(T, ets:prev(T, K), [K | Acc]).

main() ->
    T = ets:new(events, [ordered_set]),
    ets:insert(T, [{{Day, Seq}, Day * 10 + Seq} || Day <- [1, 2, 3], Seq <- [1, 2]]),
    io:format("~p~n", [ets:select(T, [{{{'$1', '_'}, '$2'}, [{'==', '$1', 2}], ['$2']}])]),
    io:format("~p~n", [ets:select(T, [{{{'$1', '$2'}, '_'}, [{'>=', '$1', 2}, {'<', '$2', 2}], [{{'$1', '$2'}}]}])]),
    io:format("~p~n", [ets:next(T, {1, 5})]),
    io:format("~p~n", [ets:next(T, {0, 0})]),
    io:format("~p~n", [ets:prev(T, {2, 0})]),
    io:format("~p~n", [back(T, ets:last(T), [])]),
    ets:delete(T, {3, 2}),
    io:format("~p~n", [ets:last(T)]),
    io:format("~p~n", [ets:select(T, [{{{1, '_'}, '$1'}, [], ['$1']}])]),
    ets:info(T, size).
