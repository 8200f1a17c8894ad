%% Request counters in a public table: bump/1 counts atomically, and
%% take/1 hands back a counter's value and sets it to 0, for a reporter
%% that sums what it takes. take/1 reads, then writes 0: two reporters can
%% both take the same count, so it is reported twice. The table ends at 0
%% whatever the order; only what the calls returned shows the harm.
%% Expected: R002 confirmed, non_serializable (both calls return the same
%% count, where a serial order returns it once and then 0).
-module(counter_reset).
-export([init/0, bump/1, take/1, test/0]).

init() ->
    ets:new(request_counts, [named_table, public]),
    ok.

bump(Name) ->
    ets:update_counter(request_counts, Name, 1, {Name, 0}).

take(Name) ->
    [{Name, Count}] = ets:lookup(request_counts, Name),
%%                    ^^^^^^^^^^ R002 #1 read: the count to hand back
    ets:insert(request_counts, {Name, 0}),
%%  ^^^^^^^^^^ R002 #1 write: another take already handed this count back
    Count.

test() ->
    init(),
    bump(requests),
    bump(requests),
    Taken = take(requests),
    ets:delete(request_counts),
    Taken.
