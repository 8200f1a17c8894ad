%% Checks: erlang:halt/0 ends the whole run at once: what was printed stays, the entry's value is never printed, other processes never run again.
-module(sem_halt).
-export([main/0]).

main() ->
    io:format("before~n"),
    spawn(fun() -> io:format("never~n") end),
    erlang:halt(),
    io:format("after~n"),
    not_printed.
