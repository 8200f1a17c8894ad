%% An on-demand server in the style of OTP's dbg_iserver: ensure_started/0
%% looks the name up and starts the server under {local, Name} only when it
%% is free, and callers insist on {ok, _}. Two first callers both see
%% undefined; gen_server refuses the second name with
%% {error, {already_started, Pid}} and that caller crashes with badmatch.
%% Expected: R001 confirmed, crash.
-module(start_checked).
-behaviour(gen_server).
-export([ensure_started/0, ask/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

ensure_started() ->
    case whereis(?MODULE) of
%%       ^^^^^^^ R001 #1 read: registry start_checked (confirmed, crash)
        undefined -> start();
        Pid -> {ok, Pid}
    end.

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).
%%  ^^^^^^^^^^^^^^^^ R001 #1 write: the second start gets already_started

ask(Q) ->
    {ok, _} = ensure_started(),
    gen_server:call(?MODULE, {ask, Q}).

init([]) ->
    {ok, #{}}.

handle_call({ask, Q}, _From, S) ->
    {reply, {answer, Q}, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> catch ask(x), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    gen_server:stop(?MODULE),
    ok.
