%% A per-host connection limit: acquire/2 takes a slot with one atomic
%% update_counter and, when the count it got is over the limit, gives that
%% slot back with another. The check uses the count the increment itself
%% returned, and the give-back undoes exactly that increment: no update is
%% lost whatever runs between (every write of the table adds a constant).
%% Expected: R002 filtered (a reservation given back).
-module(slot_reservation_ok).
-export([setup/0, acquire/2, release/1, test/0]).

setup() ->
    ets:new(slots, [named_table, public]).

acquire(Host, Max) ->
    N = ets:update_counter(slots, Host, {2, 1}, {Host, 0}),
%%      ^^^^^^^^^^^^^^^^^^ R002 #1 read: the count after this caller's own increment
    if
        N =< Max ->
            ok;
        true ->
            ets:update_counter(slots, Host, {2, -1}),
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 write: gives back exactly that increment (filtered)
            busy
    end.

release(Host) ->
    ets:update_counter(slots, Host, {2, -1}),
    ok.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), acquire(db, 2)} end) || _ <- [1, 2, 3]],
    Got = lists:sort([receive {P, R} -> R end || P <- Pids]),
    Count = ets:lookup_element(slots, db, 2),
    ets:delete(slots),
    {Got, Count}.
