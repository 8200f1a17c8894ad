%% Checks: OTP's maps: fold with accumulators of maps, filtermap returning new values, map over an empty map, iterator of an empty map.
-module(maps_groups_filtermap).
-export([main/0]).
main() ->
    Words = ["apple", "avocado", "banana", "blueberry", "cherry"],
    G = lists:foldl(fun(W, Acc) -> maps:update_with(hd(W), fun(L) -> [W | L] end, [W], Acc) end, #{}, Words),
    io:format("~p~n", [G]),
    io:format("~p~n", [maps:filtermap(fun(_, [_]) -> false; (_, L) -> {true, length(L)} end, G)]),
    io:format("~p ~p~n", [maps:map(fun(_, V) -> V end, #{}), maps:next(maps:iterator(#{}))]),
    io:format("~p~n", [maps:fold(fun(K, V, A) -> A#{K => length(V)} end, #{}, G)]),
    ok.
