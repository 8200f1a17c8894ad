-module(world_app).
-behaviour(application).
-export([start/2, stop/1]).

start(normal, [from_app_src]) ->
    world_sup:start_link().

stop(_State) ->
    ok.
