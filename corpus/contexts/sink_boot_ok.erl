%% A log sink started on demand by ensure_sink/0 (whereis, then spawn and
%% register): a check-then-act on the name. But the program calls it only
%% from init/1 of the registered log_server, once per server: two calls
%% never overlap. A harness calling ensure_sink/0 from two processes would
%% invent a race the program cannot have.
%% Expected: R001 filtered (run once: only called in init/1 of the server
%% every start names log_server; before that rule, confirm said serialised).
-module(sink_boot_ok).
-behaviour(gen_server).
-export([start_link/0, ensure_sink/0, log/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link({local, log_server}, ?MODULE, [], []).

log(Line) ->
    gen_server:cast(log_server, {log, Line}).

ensure_sink() ->
    case whereis(log_sink) of
%%       ^^^^^^^ R001 #1 read (filtered): registry log_sink, run once
        undefined ->
            Pid = spawn(fun sink/0),
            register(log_sink, Pid),
%%          ^^^^^^^^ R001 #1 write (filtered): only ever run by log_server's init/1
            Pid;
        Pid ->
            Pid
    end.

sink() ->
    receive
        {line, _} -> sink();
        stop -> ok
    end.

init([]) ->
    Sink = ensure_sink(),
    {ok, Sink}.

handle_call(_Req, _From, Sink) ->
    {reply, ok, Sink}.

handle_cast({log, Line}, Sink) ->
    Sink ! {line, Line},
    {noreply, Sink}.

test() ->
    {ok, Pid} = start_link(),
    log(hello),
    R = is_pid(whereis(log_sink)),
    unlink(Pid),
    exit(Pid, kill),
    whereis(log_sink) ! stop,
    R.
