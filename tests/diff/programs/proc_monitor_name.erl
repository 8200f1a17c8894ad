%% Checks: monitoring a registered name: 'DOWN' carries {Name,Node}; monitor when the name is unregistered gives noproc; erlang:monitor flags.
-module(proc_monitor_name).
-export([main/0]).

main() ->
    P = spawn(fun() -> receive stop -> exit(stopped_by_request) end end),
    register(rw_watched, P),
    Ref = monitor(process, rw_watched),
    rw_watched ! stop,
    io:format("~p~n", [receive {'DOWN', Ref, process, Who, Why} -> {Who, Why} end]),
    Ref2 = monitor(process, rw_watched),
    io:format("~p~n", [receive {'DOWN', Ref2, process, Who2, Why2} -> {Who2, Why2} end]),
    Q = spawn(fun() -> receive stop -> ok end end),
    register(rw_watched2, Q),
    Ref3 = monitor(process, {rw_watched2, node()}),
    unregister(rw_watched2),
    Q ! stop,
    io:format("~p~n", [receive {'DOWN', Ref3, process, Who3, Why3} -> {Who3, Why3} end]),
    io:format("~p~n", [demonitor(make_ref())]),
    io:format("~p~n", [demonitor(Ref3, [info])]),
    ok.
