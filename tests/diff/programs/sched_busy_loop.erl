%% Checks: a process that loops without a visible action and without end (a busy loop: its state comes back) does not hold the others up: they run, time passes for their timeouts, an exit signal still kills it, and a monitor sees it go.
-module(sched_busy_loop).
-export([main/0]).

main() ->
    Self = self(),
    Spin = spawn(fun() -> Self ! started, fun F() -> F() end() end),
    receive started -> ok end,
    Ticker = spawn(fun() -> tick(a, b) end),
    timer:sleep(5),
    Alive = {is_process_alive(Spin), is_process_alive(Ticker)},
    Ref = monitor(process, Spin),
    exit(Spin, die),
    Down = receive {'DOWN', Ref, process, Spin, Why} -> Why after 1000 -> timeout end,
    Slept = receive after 10 -> slept end,
    Ref2 = monitor(process, Ticker),
    exit(Ticker, kill),
    Down2 = receive {'DOWN', Ref2, process, Ticker, Why2} -> Why2 end,
    {Alive, Down, Slept, Down2, is_process_alive(Spin), is_process_alive(Ticker)}.

%% A loop of a longer period: its state comes back every second turn.
tick(X, Y) -> tick(Y, X).
