%% Cache statistics: hits are counted atomically; snapshot/0 reads the `hits`
%% row and writes the `last_snapshot` row.  The read and the write use two
%% different constant keys of one public table, so they never conflict.
%% Expected: filtered (keys can never be equal).
-module(distinct_keys_ok).
-export([setup/0, hit/0, snapshot/0, teardown/0, test/0]).

-define(TAB, cache_stats).

setup() ->
    ets:new(?TAB, [named_table, public]),
    ets:insert(?TAB, [{hits, 0}, {last_snapshot, none}]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

hit() ->
    ets:update_counter(?TAB, hits, 1).

snapshot() ->
    [{hits, H}] = ets:lookup(?TAB, hits),
%%                ^^^^^^^^^^ R002 #1 read (filtered): key hits
    Snap = {H, erlang:unique_integer([monotonic])},
    ets:insert(?TAB, {last_snapshot, Snap}),
%%  ^^^^^^^^^^ R002 #1 write (filtered): key last_snapshot, never equal to hits
    Snap.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> hit(), snapshot(), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    [{hits, H}] = ets:lookup(?TAB, hits),
    teardown(),
    H.
