%% Checks: exit/2 with kill (untrappable, reason killed), normal (ignored unless trapping), custom reason, trapped exit/2 becomes a message.
-module(proc_exit_signals).
-export([main/0]).

main() ->
    P1 = spawn(fun() -> receive _ -> ok end end),
    R1 = monitor(process, P1),
    exit(P1, normal),
    timer:sleep(20),
    io:format("alive after exit normal: ~p~n", [is_process_alive(P1)]),
    exit(P1, kill),
    io:format("~p~n", [receive {'DOWN', R1, _, _, Rs1} -> Rs1 end]),
    Self = self(),
    P2 = spawn(fun() ->
                       process_flag(trap_exit, true),
                       Self ! ready,
                       receive {'EXIT', From, Why} -> Self ! {trapped, From =:= Self, Why} end,
                       receive {'EXIT', _, Why2} -> Self ! {trapped2, Why2} end
               end),
    receive ready -> ok end,
    exit(P2, please_stop),
    io:format("~p~n", [receive {trapped, _, _} = T -> T end]),
    exit(P2, normal),
    io:format("~p~n", [receive {trapped2, _} = T2 -> T2 end]),
    P3 = spawn(fun() -> process_flag(trap_exit, true), Self ! ready, receive after infinity -> ok end end),
    receive ready -> ok end,
    R3 = monitor(process, P3),
    exit(P3, kill),
    io:format("~p~n", [receive {'DOWN', R3, _, _, Rs3} -> Rs3 end]),
    P4 = spawn(fun() -> receive after infinity -> ok end end),
    R4 = monitor(process, P4),
    exit(P4, {shutdown, reason}),
    io:format("~p~n", [receive {'DOWN', R4, _, _, Rs4} -> Rs4 end]),
    io:format("~p~n", [exit(P4, again)]),
    is_process_alive(P4).
