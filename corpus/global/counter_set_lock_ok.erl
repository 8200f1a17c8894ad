%% The same sequence with global:set_lock/1 and global:del_lock/1 around
%% the read and the write, in one function.
%% Expected: R002 filtered (the lock is held from the read to the write).
-module(counter_set_lock_ok).
-export([setup/0, teardown/0, next/0, test/0]).

-define(LOCK, {seq_lock, self()}).

setup() ->
    ets:new(seq2, [named_table, public]),
    ets:insert(seq2, {next, 1}),
    ok.

teardown() ->
    ets:delete(seq2),
    ok.

next() ->
    true = global:set_lock(?LOCK),
    [{next, N}] = ets:lookup(seq2, next),
%%                ^^^^^^^^^^ R002 #1 read: ets seq2/next, after set_lock (filtered)
    ets:insert(seq2, {next, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: before del_lock
    true = global:del_lock(?LOCK),
    N.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), next()} end) || _ <- [1, 2]],
    R = lists:sort([receive {P, X} -> X end || P <- Pids]),
    teardown(),
    R.
