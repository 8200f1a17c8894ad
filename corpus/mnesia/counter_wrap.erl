%% A 32-bit counter kept in mnesia: inc/1 bumps it with the atomic
%% dirty_update_counter and, past the wrap point, writes the wrapped value
%% back. Two bumps near the wrap: the first's write of the wrapped value
%% lands after the second's increment and erases it.
%% Expected: R003 confirmed, non_serializable.
-module(counter_wrap).
-export([setup/0, inc/1, value/0, test/0]).

-define(WRAP, 4).

setup() ->
    mnesia:start(),
    mnesia:create_table(counters, [{attributes, [name, value]}]),
    mnesia:dirty_write({counters, hits, ?WRAP - 1}),
    ok.

inc(N) ->
    case mnesia:dirty_update_counter({counters, hits}, N) of
%%       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia counters/hits (confirmed, non_serializable)
        V when V < ?WRAP -> V;
        V ->
            mnesia:dirty_write({counters, hits, V rem ?WRAP})
%%          ^^^^^^^^^^^^^^^^^^ R003 #1 write: the wrapped value overwrites the other's increment
    end.

value() ->
    [{counters, hits, V}] = mnesia:dirty_read({counters, hits}),
    V.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> inc(1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    V = value(),
    mnesia:stop(),
    V.
