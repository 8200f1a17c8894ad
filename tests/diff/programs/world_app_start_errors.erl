%% Checks: a start callback returning an error or a bad value, and one that crashes: the results application:start/1 gives.
-module(world_app_start_errors).
-behaviour(application).
-export([main/0, start/2, stop/1]).
main() ->
    [ok = application:load({application, N, [{vsn, "1"}, {mod, {?MODULE, N}}]}) || N <- [se_error, se_bad, se_ignore]],
    io:format("~p~n", [application:start(se_error)]),
    io:format("~p~n", [application:start(se_bad)]),
    io:format("~p~n", [application:start(se_ignore)]),
    io:format("~p~n", [[A || {A, _, _} <- application:which_applications(), lists:member(A, [se_error, se_bad, se_ignore])]]),
    ok.
start(normal, se_error) -> {error, no_way};
start(normal, se_bad) -> not_a_tuple;
start(normal, se_ignore) -> ignore.
stop(_) -> ok.
