%% A tty_console started like OTP's user driver: child/1 builds the child spec
%% that names start/0 as data ({tty_console_ok, start, []}), and only the
%% init/1 of the registered supervisor tty_console_sup calls it; the
%% supervisor applies each start once, so two starts never overlap.
%% Expected: R001 unconfirmed (serialised: named in the supervisor's data).
-module(tty_console_ok).
-behaviour(supervisor).
-export([start_link/0, init/1, start/0, write/1, test/0]).

start_link() ->
    supervisor:start_link({local, tty_console_sup}, ?MODULE, []).

init([]) ->
    {ok, {{one_for_one, 1, 5}, [child(tty_console)]}}.

child(Id) ->
    {Id, {?MODULE, start, []}, temporary, 1000, worker, [?MODULE]}.

start() ->
    case whereis(tty_console_ok) of
%%       ^^^^^^^ R001 #1 read: registry tty_console_ok, in the one start the supervisor makes (serialised)
        undefined ->
            Pid = spawn(fun loop/0),
            register(tty_console_ok, Pid),
%%          ^^^^^^^^ R001 #1 write: by the one start
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
    tty_console_ok ! {write, self(), Text},
    receive
        {written, N} -> {ok, N}
    end.

test() ->
    process_flag(trap_exit, true),
    {ok, Sup} = start_link(),
    {ok, 5} = write("hello"),
    tty_console_ok ! stop,
    unlink(Sup),
    exit(Sup, shutdown),
    ok.
