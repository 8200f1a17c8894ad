%% Checks: process_info/2 items: current_function (the function waiting, or the caller's own), registered_name, status (running, waiting), message_queue_len, links, monitored_by, dictionary, trap_exit, initial_call; badarg for an unknown item; undefined once the process is gone.
-module(sem_process_info).
-export([main/0, loop/0]).

c(F) -> try F() catch C:R -> {C, R} end.

loop() -> receive stop -> ok end.

main() ->
    Q = spawn(?MODULE, loop, []),
    timer:sleep(10),
    register(qq, Q),
    link(Q),
    monitor(process, Q),
    Q ! x,
    Q ! y,
    Info = [process_info(Q, current_function),
            process_info(Q, registered_name),
            process_info(Q, status),
            process_info(Q, message_queue_len),
            process_info(Q, messages),
            process_info(Q, trap_exit),
            process_info(Q, initial_call),
            process_info(Q, dictionary),
            process_info(Q, priority),
            element(2, process_info(Q, links)) =:= [self()],
            element(2, process_info(Q, monitored_by)) =:= [self()],
            c(fun() -> process_info(Q, bad_item) end),
            process_info(Q, [registered_name, message_queue_len]),
            process_info(self(), current_function),
            process_info(self(), status),
            process_info(self(), registered_name),
            c(fun() -> process_info(x, status) end)],
    unlink(Q),
    exit(Q, kill),
    timer:sleep(5),
    Gone = [process_info(Q, status), process_info(Q, [status, links])],
    {Info, Gone}.
