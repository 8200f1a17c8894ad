-module(world_sup).
-behaviour(supervisor).
-export([start_link/0, init/1]).

start_link() ->
    supervisor:start_link({local, world_sup}, ?MODULE, []).

init([]) ->
    Server = #{id => world_server, start => {world_server, start_link, []},
               restart => permanent, type => worker},
    {ok, {#{strategy => one_for_one, intensity => 3, period => 5}, [Server]}}.
