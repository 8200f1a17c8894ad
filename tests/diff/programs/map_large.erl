%% Checks: maps with more than 32 keys (hash-array representation): get/put/remove/size correctness, sorted key listing, equality independent of build order.
-module(map_large).
-export([main/0]).

main() ->
    Keys = lists:seq(1, 200),
    M1 = maps:from_list([{K, K * 2} || K <- Keys]),
    M2 = lists:foldl(fun(K, Acc) -> Acc#{K => K * 2} end, #{}, lists:reverse(Keys)),
    io:format("~p ~p~n", [map_size(M1), M1 =:= M2]),
    io:format("~p~n", [maps:get(137, M1)]),
    M3 = maps:without(lists:seq(1, 190), M1),
    io:format("~p~n", [M3]),
    io:format("~p~n", [lists:sum(maps:values(M1))]),
    io:format("~p~n", [lists:sublist(lists:sort(maps:keys(M1)), 5)]),
    AtomKeys = maps:from_list([{list_to_atom("k" ++ integer_to_list(I)), I} || I <- lists:seq(1, 40)]),
    io:format("~p~n", [lists:sublist(lists:sort(maps:to_list(AtomKeys)), 4)]),
    io:format("~p~n", [maps:filter(fun(_, V) -> V > 395 end, M1)]),
    io:format("~p~n", [maps:is_key(201, M1)]),
    Mixed = maps:merge(M1, #{a => 1, "s" => 2}),
    io:format("~p~n", [map_size(Mixed)]),
    maps:fold(fun(K, V, Acc) -> Acc + K + V end, 0, M1).
