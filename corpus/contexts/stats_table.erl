%% Counters in a table whose name the caller chooses: init(Name) makes it,
%% bump(Tab, Key) adds one with a lookup then an insert, through a helper.
%% Called on a table nobody made, the API only shows badarg; the harness
%% makes the table first with the module's own init/1, under the name the
%% program passes, and then two bumps of one key lose one increment.
%% Expected: R002 #1 and #2 confirmed, non_serializable, after
%% stats_table:init(stats).
-module(stats_table).
-export([init/1, bump/2, count/2, test/0]).

init(Name) ->
    ets:new(Name, [named_table, public, set]),
    ok.

bump(Tab, Key) ->
    add(Tab, Key, 1).

add(Tab, Key, N) ->
    case ets:lookup(Tab, Key) of
%%       ^^^^^^^^^^ R002 #1 #2 read: ets <Tab>/<Key> (confirmed, non_serializable)
        [{Key, Old}] ->
            ets:insert(Tab, {Key, Old + N});
%%          ^^^^^^^^^^ R002 #1 write: a concurrent bump is lost
        [] ->
            ets:insert(Tab, {Key, N})
%%          ^^^^^^^^^^ R002 #2 write: two first bumps both insert 1
    end.

count(Tab, Key) ->
    case ets:lookup(Tab, Key) of
        [{Key, N}] -> N;
        [] -> 0
    end.

test() ->
    init(stats),
    Self = self(),
    Pids = [spawn(fun() -> bump(stats, hits), Self ! {self(), done} end) || _ <- [1, 2]],
    [receive {P, done} -> ok end || P <- Pids],
    N = count(stats, hits),
    ets:delete(stats),
    N.
