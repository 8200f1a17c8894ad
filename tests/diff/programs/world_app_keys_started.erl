%% Checks: which_applications after starting and stopping an application with a callback; get_all_key of a loaded app; loaded apps stay loaded after stop.
-module(world_app_keys_started).
-behaviour(application).
-export([main/0, start/2, stop/1]).
main() ->
    ok = application:load({application, ks_demo, [{description, "ks"}, {vsn, "3.1"}, {mod, {?MODULE, []}}]}),
    {ok, Keys} = application:get_all_key(ks_demo),
    io:format("~p~n", [lists:sort([K || {K, _} <- Keys])]),
    ok = application:start(ks_demo, transient),
    io:format("~p~n", [lists:keyfind(ks_demo, 1, application:which_applications())]),
    ok = application:stop(ks_demo),
    io:format("~p ~p~n", [lists:keyfind(ks_demo, 1, application:which_applications()), lists:keymember(ks_demo, 1, application:loaded_applications())]),
    io:format("~p~n", [application:get_key(ks_demo, description)]),
    ok.
start(normal, []) -> {ok, spawn_link(fun() -> receive never -> ok end end)}.
stop(_) -> ok.
