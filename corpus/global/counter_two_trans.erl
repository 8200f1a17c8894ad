%% The lock taken twice: next/0 reads the sequence in one global:trans/2
%% and writes it in a second one.  Between the two the lock is free, and
%% another caller can read the same number.
%% Expected: R002 confirmed, non_serializable (two callers get one number).
-module(counter_two_trans).
-export([setup/0, teardown/0, next/0, test/0]).

-define(LOCK, {seq_lock, self()}).

setup() ->
    ets:new(seq3, [named_table, public]),
    ets:insert(seq3, {next, 1}),
    ok.

teardown() ->
    ets:delete(seq3),
    ok.

next() ->
    N = global:trans(?LOCK, fun() -> ets:lookup_element(seq3, next, 2) end),
%%                                   ^^^^^^^^^^^^^^^^^^ R002 #1 read: ets seq3/next, in the first trans (confirmed)
    global:trans(?LOCK, fun() -> ets:insert(seq3, {next, N + 1}) end),
%%                               ^^^^^^^^^^ R002 #1 write: in the second: the lock was let go between
    N.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), next()} end) || _ <- [1, 2]],
    R = lists:sort([receive {P, X} -> X end || P <- Pids]),
    teardown(),
    R.
