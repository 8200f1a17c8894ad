%% A driver process: start/0 spawns server/1 as a process of its own and
%% waits until the driver says it runs (its own or the one found). The
%% program runs server/1 only that way, and calls start/0 only from
%% handle_call/3 of port_drv_owner_ok, a server started under its name:
%% one start, hence one driver check, at a time. Calling server/1 from
%% two workers would invent two drivers started at once.
%% Expected: R001 unconfirmed (serialised: driven through its spawner).
-module(port_drv_ok).
-export([start/0, server/1, stop/0, test/0]).

start() ->
    Pid = spawn(?MODULE, server, [self()]),
    receive
        {driver, Pid, Driver} -> Driver
    end.

server(Owner) ->
    case whereis(port_drv_ok) of
%%       ^^^^^^^ R001 #1 read: registry port_drv_ok, one driver check at a time (serialised)
        undefined ->
            register(port_drv_ok, self()),
%%          ^^^^^^^^ R001 #1 write: its starter waits for it, and starts come one by one
            Owner ! {driver, self(), self()},
            loop();
        Running ->
            Owner ! {driver, self(), Running}
    end.

loop() ->
    receive
        {stop, From} -> From ! {stopped, self()};
        _ -> loop()
    end.

stop() ->
    port_drv_ok ! {stop, self()},
    receive
        {stopped, _} -> ok
    end.

test() ->
    {ok, Owner} = port_drv_owner_ok:start_link(),
    Driver = port_drv_owner_ok:open(),
    Again = port_drv_owner_ok:open(),
    stop(),
    unlink(Owner),
    exit(Owner, kill),
    Driver =:= Again.
