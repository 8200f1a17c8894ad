%% Checks: application start/stop of a library application (no mod), not_started dependencies, already_started, which_applications.
-module(world_app_start_stop).
-export([main/0]).
main() ->
    ok = application:load({application, lib_a, [{vsn, "1"}, {applications, [kernel, stdlib]}]}),
    ok = application:load({application, lib_b, [{vsn, "2"}, {applications, [kernel, lib_a]}]}),
    io:format("~p~n", [application:start(lib_b)]),
    io:format("~p~n", [application:start(lib_a)]),
    io:format("~p~n", [application:start(lib_a)]),
    io:format("~p~n", [application:ensure_started(lib_a)]),
    io:format("~p~n", [application:start(lib_b)]),
    io:format("~p~n", [[A || {A, _, _} <- application:which_applications()]]),
    io:format("~p~n", [application:stop(lib_b)]),
    io:format("~p~n", [application:stop(lib_b)]),
    io:format("~p~n", [application:unload(lib_a)]),
    ok = application:stop(lib_a),
    io:format("~p~n", [[A || {A, _, _} <- application:which_applications()]]),
    ok.
