%% A process that monitors another and exits takes its monitor with it:
%% its exit decides whether the watched process's death still sends a
%% 'DOWN' (random program seed 305). The two exits were independent, so
%% DPOR never ran the watched process's exit between the monitor and the
%% receive: {down, normal} was missed.
-module(monitor_exit).
-export([main/0]).

main() ->
    Self = self(),
    spawn(fun() ->
              monitor(process, Self),
              receive {'DOWN', _, process, _, R} -> {down, R} after 0 -> nodown end
          end),
    ok.
