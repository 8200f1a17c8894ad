%% Checks: the application controller model: load/1 of a spec tuple, get_key/2 with defaults, get_all_env, loaded_applications, unload.
-module(world_app_load_keys).
-export([main/0]).
main() ->
    Spec = {application, demo_keys, [{description, "demo"}, {vsn, "0.1"}, {modules, [world_app_load_keys]},
                                      {registered, [demo_srv]}, {applications, [kernel, stdlib]},
                                      {env, [{size, 3}, {name, "x"}]}]},
    io:format("~p~n", [application:load(Spec)]),
    io:format("~p~n", [application:load(Spec)]),
    io:format("~p~n", [[application:get_key(demo_keys, K) || K <- [vsn, description, registered, applications, mod, maxT, start_phases, nope]]]),
    io:format("~p~n", [lists:sort(application:get_all_env(demo_keys))]),
    io:format("~p~n", [application:get_env(demo_keys, size)]),
    io:format("~p~n", [lists:keyfind(demo_keys, 1, application:loaded_applications())]),
    io:format("~p~n", [application:get_application(world_app_load_keys)]),
    io:format("~p~n", [application:unload(demo_keys)]),
    io:format("~p ~p~n", [application:get_key(demo_keys, vsn), application:unload(demo_keys)]),
    io:format("~p~n", [application:get_env(demo_keys, size)]),
    ok.
