%% A driver process and its owner server. start/0 spawns server/1 as a
%% process of its own and waits until the driver says it runs (its own or
%% the one found). The program runs server/1 only that way, and calls
%% start/0 only from handle_call/3 of this module's server, started under
%% its name: one start, hence one driver check, at a time. Calling
%% server/1 from two workers would invent two drivers started at once.
%% Expected: R001 unconfirmed (serialised: driven through its spawner).
-module(port_drv_ok).
-behaviour(gen_server).
-export([start_link/0, open/0, start/0, server/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).

open() ->
    gen_server:call(?MODULE, open).

start() ->
    Pid = spawn(?MODULE, server, [self()]),
    receive
        {driver, Pid, Driver} -> Driver
    end.

server(Owner) ->
    case whereis(port_drv_ok_driver) of
%%       ^^^^^^^ R001 #1 read: registry port_drv_ok_driver, one driver check at a time (serialised)
        undefined ->
            register(port_drv_ok_driver, self()),
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

init([]) ->
    {ok, none}.

handle_call(open, _From, _) ->
    Driver = start(),
    {reply, Driver, Driver}.

handle_cast(_, State) ->
    {noreply, State}.

test() ->
    {ok, Owner} = start_link(),
    Driver = open(),
    Again = open(),
    Driver ! {stop, self()},
    receive
        {stopped, _} -> ok
    end,
    unlink(Owner),
    exit(Owner, kill),
    Driver =:= Again.
