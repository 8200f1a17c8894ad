%% Checks: spawn_link with trap_exit: {'EXIT',Pid,Reason} for normal, error and exit reasons; link/unlink.
-module(proc_link_trap).
-export([main/0]).

wait_exit(Pid) ->
    receive {'EXIT', Pid, Reason} -> Reason after 1000 -> no_exit end.

main() ->
    process_flag(trap_exit, true),
    P1 = spawn_link(fun() -> ok end),
    io:format("normal: ~p~n", [wait_exit(P1)]),
    P2 = spawn_link(fun() -> exit(custom_reason) end),
    io:format("exit: ~p~n", [wait_exit(P2)]),
    P3 = spawn_link(fun() -> error(crash) end),
    {crash, Stack} = wait_exit(P3),
    io:format("error: crash, stack is list: ~p~n", [is_list(Stack)]),
    P4 = spawn_link(fun() -> throw(t) end),
    {{nocatch, t}, _} = wait_exit(P4),
    io:format("throw: nocatch~n"),
    P5 = spawn(fun() -> receive go -> exit(later) end end),
    link(P5),
    P5 ! go,
    io:format("linked later: ~p~n", [wait_exit(P5)]),
    P6 = spawn(fun() -> receive go -> exit(unlinked) end end),
    link(P6),
    unlink(P6),
    P6 ! go,
    io:format("after unlink: ~p~n", [receive {'EXIT', P6, R6} -> R6 after 100 -> no_exit end]),
    P7 = spawn_link(fun() -> exit({shutdown, tidy}) end),
    io:format("~p~n", [wait_exit(P7)]),
    process_flag(trap_exit, false).
