%% Checks: application:ensure_all_started/1,2 starts dependencies first and returns what it started; an unknown application is an error.
-module(world_app_ensure_all).
-export([main/0]).
main() ->
    ok = application:load({application, ea_base, [{vsn, "1"}, {applications, [kernel]}]}),
    ok = application:load({application, ea_mid, [{vsn, "1"}, {applications, [kernel, ea_base]}]}),
    ok = application:load({application, ea_top, [{vsn, "1"}, {applications, [ea_mid, ea_base]}]}),
    io:format("~p~n", [application:ensure_all_started(ea_top)]),
    io:format("~p~n", [application:ensure_all_started(ea_top)]),
    io:format("~p~n", [application:ensure_all_started(ea_missing)]),
    ok = application:load({application, ea_bad, [{vsn, "1"}, {applications, [ea_nowhere]}]}),
    io:format("~p~n", [application:ensure_all_started(ea_bad, permanent)]),
    io:format("~p~n", [[A || {A, _, _} <- application:which_applications(), lists:member(A, [ea_base, ea_mid, ea_top])]]),
    [application:stop(A) || A <- [ea_top, ea_mid, ea_base]],
    ok.
