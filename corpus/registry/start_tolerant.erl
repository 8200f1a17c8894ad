%% The twin of start_checked.erl whose caller takes the lost race in its
%% stride: ensure_started/0 still returns {error, {already_started, Pid}}
%% to the second first caller, but ask/1 has a clause for it and goes on
%% with the winner. The race happens; the program's caller handles what it
%% is told. Expected: R001 unconfirmed (handled, naming ask/1's clause).
-module(start_tolerant).
-behaviour(gen_server).
-export([ensure_started/0, ask/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

ensure_started() ->
    case whereis(?MODULE) of
%%       ^^^^^^^ R001 #1 read: registry start_tolerant (unconfirmed: ask/1 handles already_started)
        undefined -> start();
        Pid -> {ok, Pid}
    end.

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).
%%  ^^^^^^^^^^^^^^^^ R001 #1 write: the second start gets already_started

ask(Q) ->
    Server =
        case ensure_started() of
            {ok, Pid} -> Pid;
            {error, {already_started, Pid}} -> Pid
        end,
    gen_server:call(Server, {ask, Q}).

init([]) ->
    {ok, #{}}.

handle_call({ask, Q}, _From, S) ->
    {reply, {answer, Q}, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), ask(x)} end) || _ <- [1, 2]],
    Answers = [receive {done, P, A} -> A end || P <- Pids],
    gen_server:stop(?MODULE),
    Answers.
