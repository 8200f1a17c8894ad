%% Session records in a table keyed on #session.id.  touch/1 reads the
%% session and writes back a record *update* of it: the key is not written
%% in the update, it comes from the object read.
%% Expected: R002 confirmed, non_serializable (two touches, one hit lost).
-module(session_touch).
-export([setup/0, teardown/0, touch/1, hits/1, test/0]).

-record(session, {id, user, hits = 0}).

setup() ->
    ets:new(sessions, [named_table, public, {keypos, #session.id}]),
    ets:insert(sessions, #session{id = s1, user = ann}),
    ok.

teardown() ->
    ets:delete(sessions),
    ok.

touch(Id) ->
    [S] = ets:lookup(sessions, Id),
%%        ^^^^^^^^^^ R002 #1 read: ets sessions/<Id> (confirmed)
    ets:insert(sessions, S#session{hits = S#session.hits + 1}).
%%  ^^^^^^^^^^ R002 #1 write: a record update of the stale session

hits(Id) ->
    [#session{hits = H}] = ets:lookup(sessions, Id),
    H.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> touch(s1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    H = hits(s1),
    teardown(),
    H.
