%% `erlang:send_after/3` to a process that may already have exited (random
%% program seeds 3, 114): no timer starts for a process that is gone, so
%% the call is ordered with that process's exit; it was not, and DPOR saw
%% only the run where the timer started.
-module(timer_to_exiting).
-export([main/0]).

main() ->
    C = spawn(fun() -> ok end),
    erlang:send_after(5, C, tick),
    done.
