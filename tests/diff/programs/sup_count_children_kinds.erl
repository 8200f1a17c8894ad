%% Checks: count_children/1 with workers and a nested supervisor, delete_child/terminate_child/restart_child results, get_childspec.
-module(sup_count_children_kinds).
-behaviour(supervisor).
-export([main/0, init/1, start_worker/0]).
main() ->
    {ok, Sup} = supervisor:start_link(?MODULE, top),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    io:format("~p~n", [supervisor:terminate_child(Sup, w1)]),
    io:format("~p~n", [[{Id, P} || {Id, P, _, _} <- supervisor:which_children(Sup), not is_pid(P)]]),
    {ok, P} = supervisor:restart_child(Sup, w1),
    io:format("~p~n", [is_pid(P)]),
    io:format("~p~n", [supervisor:delete_child(Sup, w1)]),
    ok = supervisor:terminate_child(Sup, w1 =:= w1 andalso w2),
    io:format("~p~n", [supervisor:delete_child(Sup, w2)]),
    io:format("~p~n", [supervisor:get_childspec(Sup, inner)]),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    ok.
init(top) ->
    {ok, {#{strategy => one_for_one},
          [#{id => w1, start => {?MODULE, start_worker, []}},
           #{id => w2, start => {?MODULE, start_worker, []}},
           #{id => inner, start => {supervisor, start_link, [?MODULE, inner]}, type => supervisor}]}};
init(inner) ->
    {ok, {#{strategy => one_for_one}, [#{id => iw, start => {?MODULE, start_worker, []}}]}}.
start_worker() ->
    {ok, spawn_link(fun() -> receive never -> ok end end)}.
