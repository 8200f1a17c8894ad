%% Checks: keypos other than 1 (records in ETS), lookup_element, foldl/foldr over ordered_set, ets:rename, ets:info keypos.
-module(ets_keypos_fold).
-export([main/0]).

-record(user, {name, id, score = 0}).

main() ->
    T = ets:new(users, [set, {keypos, #user.id}]),
    ets:insert(T, [#user{name = "ann", id = 3, score = 10},
                   #user{name = "bo", id = 1, score = 7},
                   #user{name = "cy", id = 2}]),
    io:format("~p~n", [ets:lookup(T, 1)]),
    io:format("~p~n", [ets:lookup_element(T, 3, #user.score)]),
    io:format("~p~n", [ets:info(T, keypos)]),
    Total = ets:foldl(fun(#user{score = S}, Acc) -> S + Acc end, 0, T),
    io:format("total: ~p~n", [Total]),
    E = try ets:insert(T, {user, no_id}) catch error:R -> R end,
    io:format("~p~n", [E]),
    E2 = try ets:lookup_element(T, 99, 2) catch error:R2 -> R2 end,
    io:format("~p~n", [E2]),
    O = ets:new(rw_squares, [ordered_set, named_table]),
    ets:insert(O, [{N, N * N} || N <- [4, 2, 3, 1]]),
    io:format("~p~n", [ets:foldl(fun({K, _}, Acc) -> [K | Acc] end, [], O)]),
    io:format("~p~n", [ets:foldr(fun({K, _}, Acc) -> [K | Acc] end, [], O)]),
    rw_renamed = ets:rename(rw_squares, rw_renamed),
    io:format("~p ~p~n", [ets:info(rw_squares), ets:info(rw_renamed, size)]),
    io:format("~p~n", [ets:lookup_element(rw_renamed, 3, 2)]),
    ets:delete_all_objects(rw_renamed),
    ets:info(rw_renamed, size).
