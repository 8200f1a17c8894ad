%% Session hit counts: touch/1 bumps an open session's count with a lookup
%% then an insert. Only open/1 creates sessions, and the generated harness
%% has none to touch; the module's EUnit test opens one and touches it.
%% Run as it is, the test touches once; amplified (its touch/1 made from two
%% processes at once), one hit is lost.
%% Expected: R002 confirmed, non_serializable, from the amplified test.
-module(session_hits).
-export([start/0, open/1, touch/1, hits/1, touch_counts_test/0, test/0]).

-define(TAB, session_hits).

start() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

open(Id) ->
    ets:insert_new(?TAB, {Id, 0}).

touch(Id) ->
    case ets:lookup(?TAB, Id) of
%%       ^^^^^^^^^^ R002 #1 read: ets session_hits/<Id> (confirmed, non_serializable)
        [{Id, N}] ->
            ets:insert(?TAB, {Id, N + 1}),
%%          ^^^^^^^^^^ R002 #1 write: a concurrent touch is lost
            {ok, N + 1};
        [] ->
            {error, no_session}
    end.

hits(Id) ->
    [{Id, N}] = ets:lookup(?TAB, Id),
    N.

%% An EUnit test (without the header, so the module also compiles alone).
touch_counts_test() ->
    start(),
    true = open(<<"s1">>),
    {ok, 1} = touch(<<"s1">>),
    1 = hits(<<"s1">>),
    ets:delete(?TAB),
    ok.

test() ->
    start(),
    open(<<"s1">>),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), touch(<<"s1">>)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = hits(<<"s1">>),
    ets:delete(?TAB),
    N.
