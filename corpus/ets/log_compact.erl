%% An event log compacted in place: compact/0 takes every entry with
%% tab2list/1, empties the table and writes back the entries it keeps.
%% An entry logged between the tab2list and the emptying is lost.
%% Expected: R002 confirmed, non_serializable.
-module(log_compact).
-export([setup/0, teardown/0, log/2, compact/0, test/0]).

setup() ->
    ets:new(events, [named_table, public]),
    ets:insert(events, [{1, boot}, {2, noise}]),
    ok.

teardown() ->
    ets:delete(events),
    ok.

log(Seq, Event) ->
    ets:insert(events, {Seq, Event}).

compact() ->
    Keep = [E || {_, Ev} = E <- ets:tab2list(events), Ev =/= noise],
%%                             ^^^^^^^^^^^^ R002 #1 read: ets events, the whole table (confirmed)
    ets:delete_all_objects(events),
    ets:insert(events, Keep).
%%  ^^^^^^^^^^ R002 #1 write: writes back only what it read, not what was logged since

test() ->
    setup(),
    Self = self(),
    P1 = spawn(fun() -> compact(), Self ! {done, self()} end),
    P2 = spawn(fun() -> log(3, login), Self ! {done, self()} end),
    [receive {done, P} -> ok end || P <- [P1, P2]],
    Left = lists:sort(ets:tab2list(events)),
    teardown(),
    Left.
