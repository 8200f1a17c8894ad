%% Checks: restart intensity: a supervisor whose child crashes more often than allowed shuts down with reason shutdown.
-module(sup_intensity_shutdown).
-behaviour(supervisor).
-export([main/0, init/1, start_child/0]).
main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link({local, intense_sup}, ?MODULE, []),
    Kill = fun() ->
                   case supervisor:which_children(intense_sup) of
                       [{c, P, _, _}] when is_pid(P) -> M = monitor(process, P), exit(P, boom), receive {'DOWN', M, _, _, _} -> ok end;
                       _ -> ok
                   end
           end,
    Kill(),
    io:format("after 1: ~p~n", [is_process_alive(Sup)]),
    Kill(),
    io:format("after 2: ~p~n", [is_process_alive(Sup)]),
    catch Kill(),
    receive {'EXIT', Sup, R} -> io:format("supervisor exit: ~p~n", [R]) after 1000 -> io:format("still up~n") end,
    ok.
init([]) ->
    {ok, {{one_for_one, 2, 100}, [{c, {?MODULE, start_child, []}, permanent, brutal_kill, worker, []}]}}.
start_child() ->
    {ok, spawn_link(fun() -> receive never -> ok end end)}.
