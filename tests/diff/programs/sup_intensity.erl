%% Checks: a supervisor gives up when restart intensity is exceeded and exits with reason shutdown; its children are gone.
-module(sup_intensity).
-behaviour(supervisor).
-export([main/0, init/1, start_crasher/0]).

init([]) ->
    {ok, {#{strategy => one_for_one, intensity => 2, period => 5},
          [#{id => crasher, start => {?MODULE, start_crasher, []}}]}}.

start_crasher() ->
    {ok, spawn_link(fun() -> receive crash -> exit(boom) end end)}.

crash_current(Sup) ->
    [{crasher, Pid, worker, _}] = supervisor:which_children(Sup),
    Ref = monitor(process, Pid),
    Pid ! crash,
    receive {'DOWN', Ref, process, Pid, _} -> ok end,
    catch supervisor:count_children(Sup),
    ok.

main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link(?MODULE, []),
    crash_current(Sup),
    io:format("after 1 crash alive: ~p~n", [is_process_alive(Sup)]),
    crash_current(Sup),
    io:format("after 2 crashes alive: ~p~n", [is_process_alive(Sup)]),
    crash_current(Sup),
    R = receive {'EXIT', Sup, Why} -> Why after 1000 -> still_running end,
    io:format("supervisor exit: ~p~n", [R]),
    process_flag(trap_exit, false),
    is_process_alive(Sup).
