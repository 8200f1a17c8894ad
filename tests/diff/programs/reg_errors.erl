%% Checks: register badarg cases (name taken, pid already named, dead pid, undefined), unregister unknown, send to unknown name is badarg.
-module(reg_errors).
-export([main/0]).

try_it(F) -> try F() catch error:R -> {error, R} end.

main() ->
    P = spawn(fun() -> receive stop -> ok end end),
    Q = spawn(fun() -> receive stop -> ok end end),
    io:format("~p~n", [try_it(fun() -> register(rw_taken, P) end)]),
    io:format("~p~n", [try_it(fun() -> register(rw_taken, Q) end)]),
    io:format("~p~n", [try_it(fun() -> register(rw_other, P) end)]),
    io:format("~p~n", [try_it(fun() -> register(undefined, Q) end)]),
    {Dead, DeadRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DeadRef, process, Dead, normal} -> ok end,
    io:format("~p~n", [try_it(fun() -> register(rw_dead, Dead) end)]),
    io:format("~p~n", [try_it(fun() -> unregister(rw_never_registered) end)]),
    io:format("~p~n", [try_it(fun() -> rw_never_registered ! hello end)]),
    io:format("~p~n", [try_it(fun() -> register("string", Q) end)]),
    {'EXIT', {SendReason, _}} = (catch erlang:send(rw_never_registered, x)),
    io:format("~p~n", [SendReason]),
    io:format("~p~n", [try_it(fun() -> Dead ! hello end)]),
    io:format("~p~n", [try_it(fun() -> {rw_never_registered, node()} ! hello end)]),
    [begin R = monitor(process, X), X ! stop, receive {'DOWN', R, process, X, _} -> ok end end || X <- [P, Q]],
    try_it(fun() -> whereis(rw_taken) end).
