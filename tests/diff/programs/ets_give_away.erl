%% Checks: ets:give_away transfers ownership with an 'ETS-TRANSFER' message; non-owner give_away is badarg; protected writes follow the new owner.
-module(ets_give_away).
-export([main/0]).

main() ->
    Self = self(),
    T = ets:new(rw_gift, [named_table, protected]),
    ets:insert(T, {k, 1}),
    Heir = spawn(fun() ->
                         receive {'ETS-TRANSFER', Tab, From, Data} ->
                                 Self ! {got, Tab, From =:= Self, Data},
                                 ets:insert(Tab, {k, 2}),
                                 Self ! inserted,
                                 receive stop -> ok end
                         end
                 end),
    io:format("~p~n", [ets:give_away(T, Heir, hello)]),
    io:format("~p~n", [receive {got, Tab, FromMe, D} -> {Tab, FromMe, D} end]),
    receive inserted -> ok end,
    io:format("~p~n", [ets:lookup(T, k)]),
    io:format("~p~n", [ets:info(T, owner) =:= Heir]),
    io:format("~p~n", [try ets:insert(T, {k, 3}) catch error:R -> R end]),
    io:format("~p~n", [try ets:give_away(T, Self, back) catch error:R2 -> R2 end]),
    Ref = monitor(process, Heir),
    Heir ! stop,
    receive {'DOWN', Ref, process, Heir, _} -> ok end,
    ets:info(T, size).
