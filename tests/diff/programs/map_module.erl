%% Checks: maps:new/put/get/find/remove/keys/values/to_list/from_list/fold/map/filter/merge/is_key/update/with/without/size/get/3/update_with.
-module(map_module).
-export([main/0]).

main() ->
    M = maps:from_list([{c, 3}, {a, 1}, {b, 2}]),
    io:format("~p~n", [maps:put(d, 4, M)]),
    io:format("~p ~p~n", [maps:get(a, M), maps:get(zz, M, default)]),
    io:format("~p ~p~n", [maps:find(b, M), maps:find(zz, M)]),
    io:format("~p~n", [maps:remove(a, M)]),
    io:format("~p~n", [lists:sort(maps:keys(M))]),
    io:format("~p~n", [lists:sort(maps:values(M))]),
    io:format("~p~n", [lists:sort(maps:to_list(M))]),
    io:format("~p~n", [maps:fold(fun(K, V, Acc) -> [{V, K} | Acc] end, [], M) -- [{1, a}, {2, b}, {3, c}]]),
    io:format("~p~n", [maps:fold(fun(_, V, Acc) -> V + Acc end, 0, M)]),
    io:format("~p~n", [maps:map(fun(_, V) -> V * 10 end, M)]),
    io:format("~p~n", [maps:filter(fun(K, _) -> K =/= b end, M)]),
    io:format("~p~n", [maps:merge(M, #{a => 100, e => 5})]),
    io:format("~p ~p~n", [maps:is_key(a, M), maps:is_key(x, M)]),
    io:format("~p~n", [maps:update(c, 33, M)]),
    io:format("~p~n", [maps:with([a, c, zz], M)]),
    io:format("~p~n", [maps:without([a, zz], M)]),
    io:format("~p ~p~n", [maps:size(M), maps:size(maps:new())]),
    io:format("~p~n", [maps:update_with(a, fun(V) -> V + 1 end, M)]),
    io:format("~p~n", [maps:update_with(q, fun(V) -> V + 1 end, 0, M)]),
    io:format("~p~n", [maps:from_list([{k, 1}, {k, 2}])]),
    io:format("~p~n", [maps:merge_with(fun(_, A, B) -> A + B end, #{x => 1, y => 2}, #{y => 10})]),
    E1 = try maps:get(zz, M) catch error:R1 -> R1 end,
    E2 = try maps:update(zz, 1, M) catch error:R2 -> R2 end,
    E3 = try maps:get(a, not_a_map) catch error:R3 -> R3 end,
    io:format("~p~n", [[E1, E2, E3]]),
    maps:take(a, M).
