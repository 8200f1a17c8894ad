%% Page-visit counters in an unnamed table: start/0 makes the table and
%% hands its id to the code that counts, so the table is only ever a value
%% in a variable.  bump/2 reads the count and writes it back plus one.
%% Expected: R002 confirmed, non_serializable (two bumps, one lost).
-module(visit_counter_tid).
-export([start/0, bump/2, count/2, test/0]).

start() ->
    Tab = ets:new(visits, [set, public]),
    ets:insert(Tab, {home, 0}),
    Tab.

bump(Tab, Page) ->
    [{Page, N}] = ets:lookup(Tab, Page),
%%                ^^^^^^^^^^ R002 #1 read: ets <tid>/<Page>, the table an argument (confirmed)
    ets:insert(Tab, {Page, N + 1}).
%%  ^^^^^^^^^^ R002 #1 write: the stale count plus one

count(Tab, Page) ->
    ets:lookup_element(Tab, Page, 2).

test() ->
    Tab = start(),
    Self = self(),
    Pids = [spawn(fun() -> bump(Tab, home), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    count(Tab, home).
