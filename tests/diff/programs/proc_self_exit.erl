%% Checks: exit(self(), Reason) behaviour with and without trap_exit, exit(self(), kill) from a child, process_flag return values.
-module(proc_self_exit).
-export([main/0]).

main() ->
    Parent = self(),
    {P1, R1} = spawn_monitor(fun() -> exit(self(), normal), Parent ! survived_normal_self_exit, receive after 50 -> ok end end),
    io:format("~p~n", [receive survived_normal_self_exit -> survived after 200 -> died end]),
    io:format("~p~n", [receive {'DOWN', R1, process, P1, W1} -> W1 end]),
    {P2, R2} = spawn_monitor(fun() -> process_flag(trap_exit, true), exit(self(), normal),
                                      receive {'EXIT', _, normal} -> Parent ! trapped_own end end),
    io:format("~p~n", [receive trapped_own -> trapped_own after 1000 -> nothing end]),
    io:format("~p~n", [receive {'DOWN', R2, process, P2, W2} -> W2 end]),
    {P3, R3} = spawn_monitor(fun() -> process_flag(trap_exit, true), exit(self(), kill), Parent ! not_reached end),
    io:format("~p~n", [receive {'DOWN', R3, process, P3, W3} -> W3 end]),
    io:format("~p~n", [receive not_reached -> reached after 50 -> not_reached end]),
    process_flag(trap_exit, false),
    Old = process_flag(trap_exit, true),
    Now = process_flag(trap_exit, false),
    io:format("~p ~p~n", [Old, Now]),
    {P4, R4} = spawn_monitor(fun() -> exit(self(), custom) end),
    receive {'DOWN', R4, process, P4, W4} -> W4 end.
