%% Checks: a trapping process receives 'EXIT' with reason killed when a linked process is killed; kill propagates as killed to non-trappers.
-module(proc_trap_exit_kill).
-export([main/0]).

main() ->
    process_flag(trap_exit, true),
    Victim = spawn_link(fun() -> receive after infinity -> ok end end),
    exit(Victim, kill),
    io:format("~p~n", [receive {'EXIT', Victim, R} -> R end]),
    Self = self(),
    Middle = spawn_link(fun() ->
                                Inner = spawn_link(fun() -> receive after infinity -> ok end end),
                                Self ! {inner, Inner},
                                receive after infinity -> ok end
                        end),
    Inner = receive {inner, I} -> I end,
    Ref = monitor(process, Inner),
    exit(Middle, kill),
    io:format("middle: ~p~n", [receive {'EXIT', Middle, R2} -> R2 end]),
    io:format("inner: ~p~n", [receive {'DOWN', Ref, process, _, R3} -> R3 end]),
    Trapper = spawn_link(fun() ->
                                 process_flag(trap_exit, true),
                                 L = spawn_link(fun() -> receive after infinity -> ok end end),
                                 Self ! {linked, L},
                                 receive {'EXIT', L, Why} -> Self ! {trapper_saw, Why} end
                         end),
    L = receive {linked, X} -> X end,
    exit(L, kill),
    io:format("~p~n", [receive {trapper_saw, W} -> W end]),
    io:format("~p~n", [receive {'EXIT', Trapper, W2} -> W2 end]),
    process_flag(trap_exit, false).
