%% `process_flag(trap_exit, true)` is a step of its own: an exit signal
%% that arrives after it and before the next receive is a message that
%% receive takes ({exit, boom}). When the flag and the receive were one
%% step, no search could see that.
-module(trap_then_receive).
-export([main/0]).

main() ->
    Self = self(),
    spawn(fun() ->
              link(Self),
              Self ! linked,
              process_flag(trap_exit, true),
              receive {'EXIT', _, R} -> {exit, R} after 0 -> none end
          end),
    receive linked -> ok end,
    exit(boom).
