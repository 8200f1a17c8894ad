%% Checks: receive after 0 on empty mailbox, after N timeout, after infinity with a message present, timeout value 0 still checks queue.
-module(proc_receive_after).
-export([main/0]).

main() ->
    R1 = receive x -> got_x after 0 -> timeout0 end,
    io:format("~p~n", [R1]),
    self() ! x,
    R2 = receive x -> got_x after 0 -> timeout0 end,
    io:format("~p~n", [R2]),
    R3 = receive never -> never after 50 -> timeout50 end,
    io:format("~p~n", [R3]),
    self() ! y,
    R4 = receive y -> got_y after infinity -> impossible end,
    io:format("~p~n", [R4]),
    Parent = self(),
    spawn(fun() -> receive after 20 -> Parent ! late end end),
    R5 = receive late -> got_late after 2000 -> too_slow end,
    io:format("~p~n", [R5]),
    self() ! unrelated,
    R6 = receive wanted -> wanted after 10 -> timed_out_with_other_queued end,
    io:format("~p~n", [R6]),
    timer:sleep(10),
    R7 = receive after 0 -> empty_receive_after end,
    io:format("~p~n", [R7]),
    receive M -> M after 0 -> nothing end.
