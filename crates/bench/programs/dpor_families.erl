%% The program families DPOR's reduction is measured on, side by side with
%% Concuerror (`racewit-bench dpor`):
%% - li3..li6: N processes each read a shared counter with ets:lookup and
%%   write it back incremented with ets:insert, then tell the parent (which
%%   owns the table) that they are done, each with its own message.
%% - wr3..wr6: N processes each look a name up with whereis and register
%%   themselves under it when it is free (a second register of the name
%%   fails: badarg), then tell the parent.
%% - wide/0: 1,000 processes that each take a few steps on their own key
%%   (the cost of a step must not grow with the number of processes).
-module(dpor_families).
-export([li3/0, li4/0, li5/0, li6/0, wr3/0, wr4/0, wr5/0, wr6/0, wide/0]).

li3() -> lookup_insert(3).
li4() -> lookup_insert(4).
li5() -> lookup_insert(5).
li6() -> lookup_insert(6).

wr3() -> whereis_register(3).
wr4() -> whereis_register(4).
wr5() -> whereis_register(5).
wr6() -> whereis_register(6).

lookup_insert(N) ->
    ets:new(counters, [public, named_table]),
    ets:insert(counters, {k, 0}),
    workers(N, fun incr/0).

incr() ->
    [{k, V}] = ets:lookup(counters, k),
    ets:insert(counters, {k, V + 1}).

whereis_register(N) ->
    workers(N, fun claim/0).

claim() ->
    case whereis(leader) of
        undefined -> register(leader, self());
        _ -> taken
    end.

wide() ->
    ets:new(wide, [public, named_table]),
    workers(1000, fun() ->
        ets:insert(wide, {self(), 1}),
        ets:lookup(wide, self())
    end).

%% N processes run Work, each says it is done; the parent waits for each
%% by name (selective receive), so that it outlives them (its table lives
%% as long as it does).
workers(N, Work) ->
    Parent = self(),
    Pids = [spawn(fun() -> Work(), Parent ! {done, self()} end)
            || _ <- lists:seq(1, N)],
    [receive {done, P} -> ok end || P <- Pids],
    ok.
