%% Checks: global:set_lock/del_lock/trans on one node: a lock held by one
%% requester keeps another waiting until del_lock (one del_lock releases a
%% lock set twice); retries 0 gives up; trans returns the fun's value, or
%% aborted when the lock cannot be had; the lock of a dead holder is free.
-module(global_locks).
-export([main/0]).

main() ->
    Self = self(),
    true = global:set_lock({res, me}),
    true = global:set_lock({res, me}),
    spawn(fun() ->
                  R0 = global:set_lock({res, other}, [node()], 0),
                  Self ! {tried, R0},
                  R = global:trans({res, other}, fun() -> inside end),
                  Self ! {other, R}
          end),
    Tried = receive {tried, T} -> T end,
    true = global:del_lock({res, me}),
    Got = receive {other, X} -> X end,
    Free = global:trans({res2, a}, fun() -> value end, [node()], 0),
    Holder = spawn(fun() ->
                           true = global:set_lock({res3, h}),
                           Self ! held,
                           receive stop -> ok end
                   end),
    receive held -> ok end,
    Busy = global:trans({res3, b}, fun() -> never end, [node()], 0),
    Ref = monitor(process, Holder),
    Holder ! stop,
    receive {'DOWN', Ref, _, _, _} -> ok end,
    AfterDeath = global:trans({res3, b}, fun() -> after_death end),
    {Tried, Got, Free, Busy, AfterDeath}.
