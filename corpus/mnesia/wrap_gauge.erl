%% A gauge kept in mnesia that wraps at 1000: bump/2 increments it with the
%% atomic dirty_update_counter and, past the wrap point, writes the wrapped
%% value back. From an empty gauge no serial run reaches the write: the
%% gauge must first be set near the wrap point with set/2. Two bumps there:
%% the first's wrapped value lands after the second's and erases it.
%% Expected: R003 confirmed, non_serializable, after set/2 seeds the gauge.
-module(wrap_gauge).
-export([setup/0, set/2, bump/2, test/0]).

setup() ->
    mnesia:start(),
    mnesia:create_table(gauges, [{attributes, [name, value]}]),
    ok.

set(Name, V) ->
    mnesia:dirty_write({gauges, Name, V}).

bump(Name, N) ->
    case mnesia:dirty_update_counter({gauges, Name}, N) of
%%       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia gauges/Name (confirmed, non_serializable)
        V when V < 1000 -> V;
        V ->
            mnesia:dirty_write({gauges, Name, V rem 1000})
%%          ^^^^^^^^^^^^^^^^^^ R003 #1 write: the wrapped value overwrites the other's bump
    end.

test() ->
    setup(),
    set(load, 999),
    Self = self(),
    Pids = [spawn(fun() -> bump(load, 1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    [{gauges, load, V}] = mnesia:dirty_read({gauges, load}),
    mnesia:stop(),
    V.
