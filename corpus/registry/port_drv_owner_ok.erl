%% The owner of the port_drv_ok driver: a server started under its name
%% whose clients ask it to open the driver; it starts the driver (or finds
%% the running one) one request at a time.
%% Expected: no suspect of its own (see port_drv_ok).
-module(port_drv_owner_ok).
-behaviour(gen_server).
-export([start_link/0, open/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link({local, ?MODULE}, ?MODULE, [], []).

open() ->
    gen_server:call(?MODULE, open).

init([]) ->
    {ok, none}.

handle_call(open, _From, _) ->
    Driver = port_drv_ok:start(),
    {reply, Driver, Driver}.

handle_cast(_, State) ->
    {noreply, State}.

test() ->
    port_drv_ok:test().
