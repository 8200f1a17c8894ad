-module(hits_sup).
-behaviour(supervisor).
-export([start_link/0, init/1]).

start_link() ->
    supervisor:start_link({local, hits_sup}, hits_sup, []).

init([]) ->
    Owner = #{id => hits_owner,
              start => {hits_owner, start_link, []},
              restart => permanent,
              type => worker},
    {ok, {#{strategy => one_for_one, intensity => 5, period => 10}, [Owner]}}.
