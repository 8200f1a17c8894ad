%% Checks: an application with a start callback: the supervisor tree it starts, get_application/0 inside it, get_env/1 of its own env, stop/1.
-module(world_app_supervision).
-behaviour(application).
-behaviour(supervisor).
-export([main/0, start/2, stop/1, init/1, worker/0]).
main() ->
    ok = application:load({application, sup_demo, [{vsn, "1"}, {applications, [kernel, stdlib]},
                                                 {mod, {?MODULE, [arg]}}, {env, [{workers, 2}]}]}),
    io:format("~p~n", [application:start(sup_demo)]),
    io:format("~p~n", [[Id || {Id, _, _, _} <- supervisor:which_children(sup_demo_sup)]]),
    io:format("~p~n", [supervisor:count_children(sup_demo_sup)]),
    sup_demo_worker ! {self(), which},
    receive {app, A, W} -> io:format("~p ~p~n", [A, W]) end,
    io:format("~p~n", [application:get_application()]),
    io:format("~p~n", [application:stop(sup_demo)]),
    io:format("~p~n", [whereis(sup_demo_sup)]),
    ok.
start(normal, [arg]) -> supervisor:start_link({local, sup_demo_sup}, ?MODULE, []).
stop(_) -> ok.
init([]) ->
    {ok, {{one_for_one, 1, 5}, [{w, {?MODULE, worker, []}, permanent, 1000, worker, [?MODULE]}]}}.
worker() ->
    Pid = spawn_link(fun() ->
                             register(sup_demo_worker, self()),
                             receive {From, which} -> From ! {app, application:get_application(), application:get_env(workers)} end,
                             receive stop -> ok end
                     end),
    {ok, Pid}.
