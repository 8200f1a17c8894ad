%% Checks: is_process_alive across a process lifecycle, process_info on a dead pid (undefined), registered_name via process_info, message_queue_len.
-module(proc_is_alive).
-export([main/0]).

main() ->
    P = spawn(fun() -> receive go -> receive die -> ok end end end),
    io:format("~p~n", [is_process_alive(P)]),
    P ! go,
    io:format("~p~n", [is_process_alive(P)]),
    Ref = monitor(process, P),
    P ! die,
    receive {'DOWN', Ref, process, P, _} -> ok end,
    io:format("~p~n", [is_process_alive(P)]),
    io:format("~p~n", [process_info(P)]),
    io:format("~p~n", [process_info(P, message_queue_len)]),
    Q = spawn(fun() -> receive after infinity -> ok end end),
    register(rw_alive, Q),
    io:format("~p~n", [process_info(Q, registered_name)]),
    Q ! a, Q ! b, Q ! c,
    timer:sleep(10),
    io:format("~p~n", [process_info(Q, message_queue_len)]),
    {messages, Ms} = process_info(Q, messages),
    io:format("~p~n", [Ms]),
    RefQ = monitor(process, Q),
    exit(Q, kill),
    receive {'DOWN', RefQ, process, Q, _} -> ok end,
    io:format("~p ~p~n", [is_process_alive(Q), whereis(rw_alive)]),
    is_process_alive(self()).
