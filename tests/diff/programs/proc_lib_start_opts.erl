%% Checks: proc_lib:start/5, start_link/5 and start_monitor/3,4,5 with spawn options; a failed start seen through the link when trapping exits; the monitor option refused; a start that times out; '$ancestors' and '$initial_call' of the started process.
-module(proc_lib_start_opts).
-export([main/0, child/2]).

child(Parent, How) ->
    Anc = get('$ancestors'),
    Init = get('$initial_call'),
    case How of
        ok -> proc_lib:init_ack({ok, self()});
        {fail, R} -> exit(R);
        ack_then_die -> proc_lib:init_ack(acked), exit(after_ack);
        silent -> receive never -> ok end
    end,
    Parent ! {info, self(), Anc =:= [Parent], Init},
    receive stop -> ok end.

stop(P) ->
    unlink(P),
    M = monitor(process, P),
    P ! stop,
    receive {'DOWN', M, process, P, _} -> ok end.

err(F) -> try F() catch C:R -> {C, R} end.

info(Pid) ->
    receive {info, Pid, A, I} -> {A, I} after 1000 -> no_info end.

main() ->
    Me = self(),
    {ok, P1} = proc_lib:start_link(?MODULE, child, [Me, ok], infinity, [{priority, normal}]),
    io:format("start_link/5: ~p~n", [info(P1)]),
    stop(P1),
    {ok, P2} = proc_lib:start(?MODULE, child, [Me, ok], 1000, []),
    io:format("start/5: ~p ~p~n", [info(P2), lists:member(P2, element(2, process_info(self(), links)))]),
    stop(P2),
    {{ok, P3}, M3} = proc_lib:start_monitor(?MODULE, child, [Me, ok]),
    io:format("start_monitor/3: ~p ~p~n", [info(P3), is_reference(M3)]),
    P3 ! stop,
    receive {'DOWN', M3, process, P3, R3} -> io:format("down ~p~n", [R3]) end,
    {{error, boom}, M4} = proc_lib:start_monitor(?MODULE, child, [Me, {fail, boom}], infinity, []),
    receive {'DOWN', M4, process, _, R4} -> io:format("down again ~p~n", [R4]) end,
    io:format("monitor option: ~p~n",
              [err(fun() -> proc_lib:start_link(?MODULE, child, [Me, ok], infinity, [monitor]) end)]),
    io:format("monitor tuple option: ~p~n",
              [err(fun() -> proc_lib:start(?MODULE, child, [Me, ok], infinity, [{monitor, []}]) end)]),
    process_flag(trap_exit, true),
    io:format("failed start_link: ~p~n",
              [proc_lib:start_link(?MODULE, child, [Me, {fail, nope}], infinity, [])]),
    io:format("no EXIT left: ~p~n", [receive {'EXIT', _, _} = E -> element(3, E) after 0 -> none end]),
    io:format("failed start: ~p~n", [proc_lib:start(?MODULE, child, [Me, {fail, nope}])]),
    io:format("ack then die: ~p~n",
              [proc_lib:start_link(?MODULE, child, [Me, ack_then_die], 1000, [])]),
    receive {'EXIT', _, R5} -> io:format("then exit ~p~n", [R5]) end,
    io:format("timeout: ~p~n", [proc_lib:start_link(?MODULE, child, [Me, silent], 50, [])]),
    io:format("timeout EXIT flushed: ~p~n", [receive {'EXIT', _, _} = E2 -> element(3, E2) after 0 -> none end]),
    io:format("start timeout: ~p~n", [proc_lib:start(?MODULE, child, [Me, silent], 50, [])]),
    {{error, timeout}, M6} = proc_lib:start_monitor(?MODULE, child, [Me, silent], 50, []),
    receive {'DOWN', M6, process, _, R6} -> io:format("monitor timeout down ~p~n", [R6]) end,
    done.
