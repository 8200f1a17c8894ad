%% An application that registers its event bus once in start/0, before any
%% client runs; clients only look the name up.  The whereis/1 in publish/1 and
%% the register/2 in start/0 touch the same name but no control-flow path leads
%% from the read to the write.  Expected: filtered.
-module(init_once_ok).
-export([start/0, publish/1, subscribe/0, stop/0, test/0]).

-define(BUS, event_bus).

start() ->
    Pid = spawn(fun() -> bus_loop([]) end),
    true = register(?BUS, Pid),
%%         ^^^^^^^^ R001 #1 write (filtered): only start/0 writes, and it reads nothing first
    ok.

publish(Event) ->
    case whereis(?BUS) of
%%       ^^^^^^^ R001 #1 read (filtered): no path from here to a register
        undefined -> {error, no_bus};
        Pid -> Pid ! {publish, Event}, ok
    end.

subscribe() ->
    ?BUS ! {subscribe, self()},
    ok.

stop() ->
    ?BUS ! stop,
    ok.

bus_loop(Subs) ->
    receive
        {subscribe, Pid} -> bus_loop([Pid | Subs]);
        {publish, Event} -> [S ! {event, Event} || S <- Subs], bus_loop(Subs);
        stop -> ok
    end.

test() ->
    ok = start(),
    ok = subscribe(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), publish({tick, N})} end) || N <- [1, 2]],
    [receive {P, ok} -> ok end || P <- Pids],
    Events = [receive {event, E} -> E after 500 -> missing end || _ <- [1, 2]],
    stop(),
    lists:sort(Events).
