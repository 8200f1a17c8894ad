%% Checks: a process that loops without a visible action (a busy loop) does not hold the others up: they run, time passes for their timeouts, an exit signal still kills it, and a monitor sees it go.
-module(sched_busy_loop).
-export([main/0]).

main() ->
    Self = self(),
    Spin = spawn(fun() -> Self ! started, fun F() -> F() end() end),
    receive started -> ok end,
    Counter = spawn(fun() -> fun G(N) -> G(N + 1) end(0) end),
    timer:sleep(5),
    Alive = {is_process_alive(Spin), is_process_alive(Counter)},
    Ref = monitor(process, Spin),
    exit(Spin, die),
    Down = receive {'DOWN', Ref, process, Spin, Why} -> Why after 1000 -> timeout end,
    Slept = receive after 10 -> slept end,
    Ref2 = monitor(process, Counter),
    exit(Counter, kill),
    Down2 = receive {'DOWN', Ref2, process, Counter, Why2} -> Why2 end,
    {Alive, Down, Slept, Down2, is_process_alive(Spin), is_process_alive(Counter)}.
