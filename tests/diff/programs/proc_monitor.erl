%% Checks: monitor/2 and spawn_monitor: 'DOWN' reasons normal/custom/noproc, demonitor with flush, monitor of a dead pid.
-module(proc_monitor).
-export([main/0]).

down(Ref) ->
    receive {'DOWN', Ref, process, _, Reason} -> Reason after 1000 -> no_down end.

main() ->
    {_, R1} = spawn_monitor(fun() -> ok end),
    io:format("~p~n", [down(R1)]),
    {_, R2} = spawn_monitor(fun() -> exit({custom, 42}) end),
    io:format("~p~n", [down(R2)]),
    {_, R3} = spawn_monitor(fun() -> error(badthing) end),
    {badthing, St} = down(R3),
    io:format("badthing ~p~n", [is_list(St)]),
    {Dead, DeadRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', DeadRef, process, Dead, normal} -> ok end,
    R4 = monitor(process, Dead),
    io:format("~p~n", [down(R4)]),
    P = spawn(fun() -> receive stop -> ok end end),
    R5 = monitor(process, P),
    io:format("~p~n", [demonitor(R5, [flush])]),
    P ! stop,
    io:format("~p~n", [receive {'DOWN', R5, _, _, _} -> got_down after 100 -> no_down_after_demonitor end]),
    Q = spawn(fun() -> receive stop -> ok end end),
    Ra = monitor(process, Q), Rb = monitor(process, Q),
    exit(Q, kill),
    io:format("~p ~p~n", [down(Ra), down(Rb)]),
    R6 = monitor(process, list_to_atom("not_registered_name")),
    receive {'DOWN', R6, process, Who, Why} -> {Who, Why} end.
