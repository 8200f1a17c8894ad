%% Checks: spawn with a fun and with M,F,A, message passing both ways, self() in child differs from parent.
-module(proc_spawn_basic).
-export([main/0, echo/1]).

echo(Parent) ->
    receive
        {msg, X} -> Parent ! {echoed, X}, echo(Parent);
        stop -> Parent ! stopped
    end.

main() ->
    Parent = self(),
    P1 = spawn(fun() -> Parent ! {hello_from_child, self() =/= Parent} end),
    receive {hello_from_child, Diff} -> io:format("child differs: ~p~n", [Diff]) end,
    P2 = spawn(?MODULE, echo, [Parent]),
    P2 ! {msg, 1},
    P2 ! {msg, two},
    P2 ! stop,
    R = [receive M -> M end || _ <- [1, 2, 3]],
    io:format("~p~n", [R]),
    io:format("~p~n", [is_pid(P1) andalso P1 =/= P2]),
    Square = spawn(fun() -> receive {From, N} -> From ! {result, N * N} end end),
    Square ! {self(), 12},
    receive {result, V} -> io:format("square: ~p~n", [V]) end,
    Msg = {any, [term, <<"ok">>], #{k => v}},
    Echo = spawn(fun() -> receive {From, T} -> From ! T end end),
    Echo ! {self(), Msg},
    receive Got -> Got =:= Msg end.
