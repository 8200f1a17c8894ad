%% A report server started on first use, whose settings are read from a file
%% before the usual check-then-register.  file:read_file/1 needs real I/O, so
%% the VM stops before it reaches the race.
%% Expected: R001 unconfirmed, with an "unsupported call file:read_file/1"
%% reason, not an error or a crash of racewit.
-module(config_file_start).
-export([ensure_started/0, settings/0, stop/0, test/0]).

-define(NAME, report_server).
-define(CONFIG, "/etc/report_server.conf").

settings() ->
    case file:read_file(?CONFIG) of
        {ok, Bin} -> binary:split(Bin, <<"\n">>, [global, trim_all]);
        {error, _} -> []
    end.

ensure_started() ->
    Settings = settings(),
    case whereis(?NAME) of
%%       ^^^^^^^ R001 #1 read: registry report_server (unconfirmed: file:read_file/1 first)
        undefined ->
            Pid = spawn(fun() -> loop(Settings) end),
            register(?NAME, Pid),
%%          ^^^^^^^^ R001 #1 write: a real race the VM cannot reach
            Pid;
        Pid ->
            Pid
    end.

stop() ->
    case whereis(?NAME) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

loop(Settings) ->
    receive
        {get, From} -> From ! {settings, Settings}, loop(Settings);
        stop -> ok
    end.

test() ->
    Pid = ensure_started(),
    Pid = ensure_started(),
    stop(),
    is_pid(Pid).
