%% Checks: demonitor/2 takes a proper list of flush and info (else badarg) and answers as the BEAM; monitor/2,3 validate their arguments and monitor/3's {tag, Tag} replaces 'DOWN'.
-module(sem_monitor_options).
-export([main/0, loop/0]).

c(F) -> try F() catch C:R -> {C, R} end.

loop() -> receive stop -> ok end.

main() ->
    P = spawn(?MODULE, loop, []),
    M = monitor(process, P),
    Demonitor = [c(fun() -> demonitor(M, [bad]) end),
                 c(fun() -> demonitor(M, bad) end),
                 c(fun() -> demonitor(M, [flush | x]) end),
                 c(fun() -> demonitor(x, []) end),
                 c(fun() -> demonitor(M, [info]) end),
                 c(fun() -> demonitor(M, [info]) end),
                 c(fun() -> demonitor(M, [flush, info]) end),
                 c(fun() -> demonitor(M, []) end)],
    Monitor = [c(fun() -> monitor(process, P, [bad]) end),
               c(fun() -> monitor(process, P, bad) end),
               c(fun() -> monitor(process, P, [{tag, a} | b]) end),
               c(fun() -> monitor(foo, P) end),
               c(fun() -> monitor(process, 42) end),
               c(fun() -> monitor(process, {a, b, c}) end)],
    M3 = monitor(process, P, [{tag, my_tag}]),
    P ! stop,
    Tagged = receive {my_tag, M3, process, P, normal} -> tagged after 1000 -> none end,
    Gone = spawn(fun() -> ok end),
    timer:sleep(10),
    M4 = monitor(process, Gone, [{tag, late}]),
    Late = receive {late, M4, process, Gone, noproc} -> late_tagged after 1000 -> none end,
    Flushed = begin
                  Q = spawn(fun() -> ok end),
                  M5 = monitor(process, Q),
                  timer:sleep(10),
                  R = demonitor(M5, [flush, info]),
                  {R, receive {'DOWN', M5, _, _, _} -> left after 0 -> flushed end}
              end,
    {Demonitor, Monitor, Tagged, Late, Flushed}.
