%% Checks: application env loaded from a spec: set_env/unset_env after load, get_env/3 default, get_all_env order-independent, set_env/1 with a config list.
-module(world_app_env_types).
-export([main/0]).
main() ->
    ok = application:load({application, env_demo, [{vsn, "1"}, {env, [{a, 1}, {b, [x]}]}]}),
    ok = application:set_env(env_demo, c, 3),
    ok = application:unset_env(env_demo, a),
    io:format("~p ~p~n", [application:get_env(env_demo, a), application:get_env(env_demo, a, dflt)]),
    io:format("~p~n", [lists:sort(application:get_all_env(env_demo))]),
    ok = application:set_env([{env_demo, [{d, 4}]}, {other_app, [{e, 5}]}]),
    io:format("~p ~p~n", [application:get_env(env_demo, d), application:get_env(other_app, e)]),
    io:format("~p~n", [application:get_key(env_demo, env) =:= {ok, application:get_all_env(env_demo)}]),
    ok.
