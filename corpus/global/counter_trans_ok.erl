%% A cluster-wide sequence in a public table, every update made inside
%% global:trans/2 on the same lock: next/0 reads and writes under it, and
%% nothing writes the sequence without it.
%% Expected: R002 filtered (read and write under one lock, as every write).
-module(counter_trans_ok).
-export([setup/0, teardown/0, next/0, test/0]).

-define(LOCK, {seq_lock, self()}).

setup() ->
    ets:new(seq, [named_table, public]),
    ets:insert(seq, {next, 1}),
    ok.

teardown() ->
    ets:delete(seq),
    ok.

next() ->
    global:trans(?LOCK,
                 fun() ->
                         [{next, N}] = ets:lookup(seq, next),
%%                                     ^^^^^^^^^^ R002 #1 read: ets seq/next, under the seq_lock lock (filtered)
                         ets:insert(seq, {next, N + 1}),
%%                       ^^^^^^^^^^ R002 #1 write: still under the same lock
                         N
                 end).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), next()} end) || _ <- [1, 2]],
    R = lists:sort([receive {P, X} -> X end || P <- Pids]),
    teardown(),
    R.
