%% A node agent registered under a name that includes the host name, which it
%% gets from os:cmd/1 between the registry check and the registration.  Every
%% path from the read to the write goes through the shell command, which the
%% VM cannot run.  Expected: R001 unconfirmed (unsupported call os:cmd/1
%% inside the window).
-module(hostname_register).
-export([ensure_agent/0, stop/0, test/0]).

-define(NAME, node_agent).

ensure_agent() ->
    case whereis(?NAME) of
%%       ^^^^^^^ R001 #1 read: registry node_agent (unconfirmed: os:cmd/1 in between)
        undefined ->
            Host = string:trim(os:cmd("hostname")),
            Pid = spawn(fun() -> agent_loop(Host) end),
            register(?NAME, Pid),
%%          ^^^^^^^^ R001 #1 write: would be badarg for a second caller
            {started, Host};
        _Pid ->
            already_running
    end.

stop() ->
    case whereis(?NAME) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

agent_loop(Host) ->
    receive
        {whoami, From} -> From ! {host, Host}, agent_loop(Host);
        stop -> ok
    end.

test() ->
    {started, Host} = ensure_agent(),
    already_running = ensure_agent(),
    stop(),
    is_list(Host).
