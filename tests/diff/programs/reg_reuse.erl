%% Checks: a registered name is freed when its process dies and can be re-registered; sending to the name after death is badarg; whereis tracks the new pid.
-module(reg_reuse).
-export([main/0]).

start(Tag) ->
    Self = self(),
    P = spawn(fun() -> receive {ping, From} -> From ! {pong, Tag}; die -> ok end end),
    register(rw_service, P),
    Self ! registered,
    P.

main() ->
    P1 = start(first),
    receive registered -> ok end,
    R1 = monitor(process, P1),
    rw_service ! {ping, self()},
    io:format("~p~n", [receive {pong, T1} -> T1 end]),
    receive {'DOWN', R1, process, P1, _} -> ok end,
    io:format("~p~n", [whereis(rw_service)]),
    io:format("~p~n", [try rw_service ! {ping, self()} catch error:R -> R end]),
    P2 = start(second),
    receive registered -> ok end,
    io:format("~p~n", [whereis(rw_service) =:= P2 andalso P1 =/= P2]),
    R2 = monitor(process, P2),
    rw_service ! {ping, self()},
    io:format("~p~n", [receive {pong, T2} -> T2 end]),
    receive {'DOWN', R2, process, P2, _} -> ok end,
    P3 = start(third),
    receive registered -> ok end,
    unregister(rw_service),
    io:format("~p~n", [is_process_alive(P3)]),
    P3 ! die,
    lists:member(rw_service, registered()).
