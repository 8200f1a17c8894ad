%% Request counters done right: increments use ets:update_counter/4, which is
%% atomic, value/1 only reads and reset/1 only writes.  The lookup and the
%% insert touch the same rows but no function reads and then writes.
%% Expected: filtered (no control-flow path from the read to the write).
-module(counter_atomic_ok).
-export([setup/0, incr/1, value/1, reset/1, teardown/0, test/0]).

-define(TAB, req_counters).

setup() ->
    ets:new(?TAB, [named_table, public, {write_concurrency, true}]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

incr(Route) ->
    ets:update_counter(?TAB, Route, 1, {Route, 0}).

value(Route) ->
    case ets:lookup(?TAB, Route) of
%%       ^^^^^^^^^^ R002 #1 read (filtered): value/1 never writes afterwards
        [{Route, N}] -> N;
        [] -> 0
    end.

reset(Route) ->
    ets:insert(?TAB, {Route, 0}).
%%  ^^^^^^^^^^ R002 #1 write (filtered): reset/1 reads nothing first

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> [incr(<<"/api">>) || _ <- lists:seq(1, 50)], Self ! {done, self()} end)
            || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    N = value(<<"/api">>),
    reset(<<"/api">>),
    Z = value(<<"/api">>),
    teardown(),
    {N, Z}.
