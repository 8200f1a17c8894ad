%% The twin of port_drv_ok: start/0 is the API, and nothing in the program
%% serialises its callers. Two clients start a driver each; both drivers
%% find no port_drv and register, and the second register raises badarg.
%% server/1 is only ever a spawned process's body, but its spawner may run
%% in several processes at once, so workers calling it stand for that.
%% Expected: R001 confirmed crash.
-module(port_drv).
-export([start/0, server/1, stop/0, test/0]).

start() ->
    spawn(?MODULE, server, [self()]).

server(Owner) ->
    case whereis(port_drv) of
%%       ^^^^^^^ R001 #1 read: registry port_drv, in each driver a client starts
        undefined ->
            register(port_drv, self()),
%%          ^^^^^^^^ R001 #1 write: the second driver's register raises badarg
            Owner ! {driver, self()},
            loop();
        _ ->
            exit(already_running)
    end.

loop() ->
    receive
        {stop, From} -> From ! {stopped, self()};
        _ -> loop()
    end.

stop() ->
    port_drv ! {stop, self()},
    receive
        {stopped, _} -> ok
    end.

test() ->
    Pid = start(),
    receive
        {driver, Pid} -> ok
    end,
    stop().
