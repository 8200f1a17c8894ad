%% Checks: spawn_opt with [monitor] and [link], erlang:spawn_opt/4 with MFA, spawn_request-free; returned shapes and exit reasons.
-module(proc_spawn_opt).
-export([main/0, worker/1]).

worker(R) -> exit(R).

main() ->
    {P, Ref} = spawn_opt(fun() -> exit(via_spawn_opt) end, [monitor]),
    io:format("~p~n", [receive {'DOWN', Ref, process, P, W} -> W end]),
    process_flag(trap_exit, true),
    L = spawn_opt(fun() -> exit(linked_opt) end, [link]),
    io:format("~p~n", [receive {'EXIT', L, W2} -> W2 end]),
    {P3, Ref3} = spawn_opt(?MODULE, worker, [mfa_reason], [monitor]),
    io:format("~p~n", [receive {'DOWN', Ref3, process, P3, W3} -> W3 end]),
    P4 = spawn_opt(fun() -> receive ping -> ok end end, [{priority, normal}]),
    io:format("~p~n", [is_pid(P4)]),
    exit(P4, kill),
    process_flag(trap_exit, false),
    ok.
