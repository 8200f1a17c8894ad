%% A per-host connection limit: acquire/2 claims a slot with one atomic
%% update_counter and gives it back with another when the count it got is
%% over the limit; release/1 gives a slot back with a floor at 0. Another
%% caller's claim or give-back between the two changes nothing: the
%% give-back adds its constant to whatever count is there, in any order.
%% Expected: R002 unconfirmed (no stale write: the write adds a constant).
-module(slot_claim_floor_ok).
-export([setup/0, acquire/2, release/1, test/0]).

setup() ->
    ets:new(host_slots, [named_table, public]).

acquire(Host, Max) ->
    N = ets:update_counter(host_slots, Host, {2, 1}, {Host, 0}),
%%      ^^^^^^^^^^^^^^^^^^ R002 #1 read: the count after this caller's own claim
    if
        N =< Max ->
            ok;
        true ->
            ets:update_counter(host_slots, Host, {2, -1}),
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 write: gives back exactly its own claim (unconfirmed)
            busy
    end.

release(Host) ->
    ets:update_counter(host_slots, Host, {2, -1, 0, 0}),
    ok.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), acquire(db, 1)} end) || _ <- [1, 2, 3]],
    Got = lists:sort([receive {P, R} -> R end || P <- Pids]),
    Count = ets:lookup_element(host_slots, db, 2),
    ets:delete(host_slots),
    {Got, Count}.
