%% dbg_iserver's shape with only the client call exported: ask/1 looks the
%% server's name up and starts it under {local, Name} when it is free, then
%% insists on {ok, _}. The name is registered by the started process, not
%% at the start call: two first callers both see undefined, gen_server
%% refuses the second name with {error, {already_started, Pid}}, and that
%% caller crashes with badmatch.
%% Expected: R001 confirmed, crash.
-module(start_insisted).
-behaviour(gen_server).
-export([ask/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

ask(Q) ->
    {ok, _} = ensure_started(),
    gen_server:call(?MODULE, {ask, Q}).

ensure_started() ->
    case whereis(?MODULE) of
%%       ^^^^^^^ R001 #1 read: registry start_insisted (confirmed, crash)
        undefined -> start();
        Pid -> {ok, Pid}
    end.

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).
%%  ^^^^^^^^^^^^^^^^ R001 #1 write: the second start gets already_started

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
