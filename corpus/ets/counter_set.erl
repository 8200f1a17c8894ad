%% Counters with an aggregate: set/2 replaces a counter's value and moves
%% the aggregate by the difference from the old value, which it reads with
%% lookup_element/3 (raising badarg when the counter is absent, so the
%% insert runs only after a counter was found). An add/2 between the read
%% and the insert is lost, and the aggregate is off by it.
%% Expected: R002 confirmed (the insert after the existence check).
-module(counter_set).
-export([setup/0, set/2, add/2, test/0]).

setup() ->
    ets:new(ctrs, [named_table, public]),
    ets:insert(ctrs, [{{c, hits}, 0}, {total, 0}]).

set(Name, Value) ->
    Old = ets:lookup_element(ctrs, {c, Name}, 2),
%%        ^^^^^^^^^^^^^^^^^^ R002 #1 read: the old value, and that the counter exists
    ets:insert(ctrs, {{c, Name}, Value}),
%%  ^^^^^^^^^^ R002 #1 write: overwrites an add made since the read
    ets:update_counter(ctrs, total, Value - Old),
    ok.

add(Name, N) ->
    ets:update_counter(ctrs, {c, Name}, N),
    ets:update_counter(ctrs, total, N),
    ok.

test() ->
    setup(),
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), set(hits, 10)} end),
    P2 = spawn(fun() -> Self ! {self(), add(hits, 5)} end),
    [receive {P, ok} -> ok end || P <- [P1, P2]],
    Result = {ets:lookup_element(ctrs, {c, hits}, 2), ets:lookup_element(ctrs, total, 2)},
    ets:delete(ctrs),
    Result.
