%% Checks: an abnormal exit kills linked non-trapping processes in a chain; normal exit does not; trapping process converts to a message.
-module(proc_link_cascade).
-export([main/0]).

chain(0, Parent) ->
    Parent ! {ready, self()},
    receive die -> exit(chain_broken) end;
chain(N, Parent) ->
    spawn_link(fun() -> chain(N - 1, Parent) end),
    receive never -> ok end.

main() ->
    process_flag(trap_exit, true),
    Self = self(),
    Head = spawn_link(fun() -> chain(3, Self) end),
    Tail = receive {ready, T} -> T end,
    Tail ! die,
    Reason = receive {'EXIT', Head, R} -> R after 1000 -> no_exit end,
    io:format("head died with: ~p~n", [Reason]),
    io:format("tail alive: ~p~n", [is_process_alive(Tail)]),
    Survivor = spawn(fun() ->
                             spawn_link(fun() -> exit(normal) end),
                             receive ping -> Self ! pong end
                     end),
    timer:sleep(50),
    Survivor ! ping,
    io:format("~p~n", [receive pong -> survivor_answered after 1000 -> survivor_dead end]),
    Victim = spawn(fun() ->
                           spawn_link(fun() -> exit(bad) end),
                           receive ping -> Self ! pong end
                   end),
    VRef = monitor(process, Victim),
    io:format("victim: ~p~n", [receive {'DOWN', VRef, process, Victim, VWhy} -> VWhy end]),
    io:format("victim alive: ~p~n", [is_process_alive(Victim)]),
    ok.
