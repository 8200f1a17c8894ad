%% Web sessions: touch/1 bumps the hit count of an open session with a
%% lookup then an insert, a lost update when two requests touch it at once.
%% Sessions are opened only by the acceptor, which reads from a socket; a
%% harness that calls touch/1 finds no session, so the insert never runs.
%% Expected: R002 unconfirmed (not_reached): the write was never executed.
-module(touch_session).
-export([setup/0, accept/1, touch/1, hits/1, test/0]).

-define(TAB, web_sessions).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

%% Opens a session for each connection the listening socket accepts.
accept(Listen) ->
    {ok, Sock} = gen_tcp:accept(Listen),
    {ok, <<"SESSION ", Id/binary>>} = gen_tcp:recv(Sock, 0),
    open(Id),
    accept(Listen).

open(Id) ->
    ets:insert_new(?TAB, {Id, 0}).

touch(Id) ->
    case ets:lookup(?TAB, Id) of
%%       ^^^^^^^^^^ R002 #1 read: ets web_sessions/<Id> (unconfirmed, not_reached)
        [{Id, N}] ->
            ets:insert(?TAB, {Id, N + 1}),
%%          ^^^^^^^^^^ R002 #1 write: a concurrent touch is lost
            {ok, N + 1};
        [] ->
            {error, no_session}
    end.

hits(Id) ->
    case ets:lookup(?TAB, Id) of
        [{Id, N}] -> N;
        [] -> 0
    end.

test() ->
    setup(),
    open(<<"s1">>),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), touch(<<"s1">>)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = hits(<<"s1">>),
    ets:delete(?TAB),
    N.
