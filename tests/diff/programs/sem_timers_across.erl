%% Checks: timers seen from other processes: another process reads and cancels a timer by its reference; a timer outlives the process that started it (its destination lives on); a timer to a name nobody holds when it fires is dropped; a timer to a process that exits is cancelled; no timer is ever a process or a crash.
-module(sem_timers_across).
-export([main/0]).

left(T) -> is_integer(T) andalso T > 0 andalso T =< 5000.

main() ->
    Self = self(),
    Before = length(processes()),
    T1 = erlang:send_after(5000, Self, never),
    {P1, M1} = spawn_monitor(fun() ->
        Self ! {read, left(erlang:read_timer(T1))},
        Self ! {cancel, left(erlang:cancel_timer(T1))},
        Self ! {again, erlang:read_timer(T1)}
    end),
    R1 = [receive {Tag, V} -> {Tag, V} end || Tag <- [read, cancel, again]],
    D1 = receive {'DOWN', M1, process, P1, Why1} -> Why1 end,
    {P2, M2} = spawn_monitor(fun() -> Self ! {started, erlang:start_timer(30, Self, from_child)} end),
    T2 = receive {started, T} -> T end,
    D2 = receive {'DOWN', M2, process, P2, Why2} -> Why2 end,
    F2 = receive {timeout, T2, from_child} -> fired after 2000 -> lost end,
    T3 = erlang:send_after(20, nobody_has_this_name, dropped),
    timer:sleep(60),
    R3 = erlang:read_timer(T3),
    {P4, M4} = spawn_monitor(fun() -> receive stop -> ok end end),
    T4 = erlang:send_after(5000, P4, late),
    L4 = left(erlang:read_timer(T4)),
    P4 ! stop,
    D4 = receive {'DOWN', M4, process, P4, Why4} -> Why4 end,
    R4 = erlang:read_timer(T4),
    Crashed = receive {'EXIT', _, _} = E -> E after 50 -> none end,
    After = length(processes()) - Before,
    Mailbox = process_info(Self, message_queue_len),
    {R1, D1, D2, F2, R3, L4, D4, R4, Crashed, After, Mailbox}.
