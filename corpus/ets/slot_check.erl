%% A per-host connection limit checked with a plain read: acquire/2 looks
%% the count up and increments it only when it is under the limit. Two
%% callers that both see one slot left both take it: the limit is passed.
%% Expected: R002 confirmed (the check is stale; the atomic increment does
%% not save it).
-module(slot_check).
-export([setup/0, acquire/2, release/1, test/0]).

setup() ->
    ets:new(conns, [named_table, public]),
    ets:insert(conns, {db, 0}).

acquire(Host, Max) ->
    N = ets:lookup_element(conns, Host, 2),
%%      ^^^^^^^^^^^^^^^^^^ R002 #1 read: the count, checked against the limit
    if
        N < Max ->
            ets:update_counter(conns, Host, {2, 1}),
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 write: a second caller passes the limit
            ok;
        true ->
            busy
    end.

release(Host) ->
    ets:update_counter(conns, Host, {2, -1}),
    ok.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), acquire(db, 1)} end) || _ <- [1, 2]],
    Got = lists:sort([receive {P, R} -> R end || P <- Pids]),
    Count = ets:lookup_element(conns, db, 2),
    ets:delete(conns),
    {Got, Count}.
