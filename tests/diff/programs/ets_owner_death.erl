%% Checks: a table is deleted when its owner dies (named table name becomes free, access is badarg); heir transfers ownership.
-module(ets_owner_death).
-export([main/0]).

main() ->
    Self = self(),
    Owner = spawn(fun() ->
                          ets:new(rw_owned, [named_table, public]),
                          ets:insert(rw_owned, {x, 1}),
                          Self ! created,
                          receive die -> ok end
                  end),
    receive created -> ok end,
    io:format("while alive: ~p~n", [ets:lookup(rw_owned, x)]),
    Ref = monitor(process, Owner),
    Owner ! die,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    io:format("after death: ~p~n", [try ets:lookup(rw_owned, x) catch error:R -> R end]),
    io:format("info: ~p~n", [ets:info(rw_owned)]),
    rw_owned = ets:new(rw_owned, [named_table]),
    io:format("name reusable: ~p~n", [ets:info(rw_owned, size)]),
    Owner2 = spawn(fun() ->
                           ets:new(rw_inherit, [named_table, public, {heir, Self, gift}]),
                           ets:insert(rw_inherit, {y, 2}),
                           Self ! created,
                           receive die -> ok end
                   end),
    receive created -> ok end,
    Owner2 ! die,
    receive {'ETS-TRANSFER', rw_inherit, _From, Data} -> io:format("transfer: ~p~n", [Data]) end,
    io:format("~p~n", [ets:info(rw_inherit, owner) =:= Self]),
    ets:lookup(rw_inherit, y).
