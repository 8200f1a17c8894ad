%% The twin of tty_console_ok: the supervisor whose child spec names start/0
%% is started without a name, by an exported start_link/0, so several
%% supervisors may each start a console at once; both see no console and
%% the second register raises badarg.
%% Expected: R001 confirmed (crash).
-module(tty_console).
-behaviour(supervisor).
-export([start_link/0, init/1, start/0, write/1, test/0]).

start_link() ->
    supervisor:start_link(?MODULE, []).

init([]) ->
    {ok, {{one_for_one, 1, 5}, [child(tty_console)]}}.

child(Id) ->
    {Id, {?MODULE, start, []}, temporary, 1000, worker, [?MODULE]}.

start() ->
    case whereis(tty_console) of
%%       ^^^^^^^ R001 #1 read: registry tty_console (confirmed, crash)
        undefined ->
            Pid = spawn(fun loop/0),
            register(tty_console, Pid),
%%          ^^^^^^^^ R001 #1 write: the second start gets badarg
            {ok, Pid};
        Pid ->
            {ok, Pid}
    end.

loop() ->
    receive
        {write, From, Text} ->
            From ! {written, length(Text)},
            loop();
        stop ->
            ok
    end.

write(Text) ->
    tty_console ! {write, self(), Text},
    receive
        {written, N} -> {ok, N}
    end.

test() ->
    process_flag(trap_exit, true),
    {ok, Sup} = start_link(),
    {ok, 5} = write("hello"),
    tty_console ! stop,
    unlink(Sup),
    exit(Sup, shutdown),
    ok.
