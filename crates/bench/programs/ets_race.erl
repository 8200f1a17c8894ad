%% N processes each read a shared counter with ets:lookup and write it back
%% incremented with ets:insert: the lost-update pattern, for comparing
%% exploration speed with Concuerror on the same program and bound.
-module(ets_race).
-export([test/0, test2/0, test3/0]).

test() -> run(5).

test2() -> run(2).

test3() -> run(3).

run(N) ->
    ets:new(counters, [public, named_table]),
    ets:insert(counters, {k, 0}),
    Parent = self(),
    Pids = [spawn(fun() -> incr(), Parent ! done end) || _ <- lists:seq(1, N)],
    [receive done -> ok end || _ <- Pids],
    [{k, Final}] = ets:lookup(counters, k),
    N = Final,
    ok.

incr() ->
    [{k, V}] = ets:lookup(counters, k),
    ets:insert(counters, {k, V + 1}).
