%% Checks: spawn/3, spawn_link/3, spawn_monitor/3 with exported functions; erlang:apply in child; exit reasons from MFA processes.
-module(proc_spawn_mfa).
-export([main/0, child/2, crash_with/1]).

child(Parent, N) -> Parent ! {child_result, N * 3}.

crash_with(Reason) -> exit(Reason).

main() ->
    spawn(?MODULE, child, [self(), 5]),
    io:format("~p~n", [receive {child_result, R} -> R end]),
    process_flag(trap_exit, true),
    L = spawn_link(?MODULE, crash_with, [linked_reason]),
    io:format("~p~n", [receive {'EXIT', L, Why} -> Why end]),
    {M, Ref} = spawn_monitor(?MODULE, crash_with, [{monitored, 1}]),
    io:format("~p~n", [receive {'DOWN', Ref, process, M, Why2} -> Why2 end]),
    {U, Ref2} = spawn_monitor(?MODULE, no_such_fun, []),
    {undef, [{?MODULE, no_such_fun, [], _} | _]} = receive {'DOWN', Ref2, process, U, W3} -> W3 end,
    io:format("undef in child~n"),
    {_, Ref3} = spawn_monitor(lists, seq, [1, 3]),
    io:format("~p~n", [receive {'DOWN', Ref3, _, _, W4} -> W4 end]),
    Pids = [spawn(?MODULE, child, [self(), N]) || N <- [1, 2, 3]],
    Rs = lists:sort([receive {child_result, X} -> X end || _ <- Pids]),
    process_flag(trap_exit, false),
    Rs.
