-module(receiving).
-export([loop/1, wait/0, flush/0]).

loop(State) ->
    receive
        {get, From} -> From ! {state, State}, loop(State);
        {set, New} -> loop(New);
        stop -> ok
    after 5000 ->
        timeout
    end.
wait() -> receive after 100 -> ok end.
flush() -> receive _ -> flush() after 0 -> done end.
