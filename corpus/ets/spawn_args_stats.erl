%% Request statistics kept by spawned reporters: spawn/3 hands each
%% reporter the table id in its argument list; record/3 reads the running
%% total and writes the new one.
%% Expected: R002 confirmed, non_serializable (one reporter's bytes lost).
-module(spawn_args_stats).
-export([start/0, reporter/3, record/3, test/0]).

start() ->
    Tab = ets:new(stats, [public]),
    ets:insert(Tab, {bytes, 0}),
    Tab.

reporter(Parent, Tab, Bytes) ->
    record(Tab, bytes, Bytes),
    Parent ! {done, self()}.

record(Tab, Key, Amount) ->
    Total = ets:lookup_element(Tab, Key, 2),
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 read: ets <tid>/<Key>, the table a spawn argument (confirmed)
    ets:insert(Tab, {Key, Total + Amount}).
%%  ^^^^^^^^^^ R002 #1 write: a total missing the other reporter's amount

test() ->
    Tab = start(),
    Pids = [spawn(?MODULE, reporter, [self(), Tab, B]) || B <- [100, 200]],
    [receive {done, P} -> ok end || P <- Pids],
    ets:lookup_element(Tab, bytes, 2).
