%% Checks: supervisor children that are permanent, transient and temporary: which gets restarted on normal and abnormal exits; which_children and count_children.
-module(sup_restart_types).
-behaviour(supervisor).
-export([main/0, init/1, start_child/1]).
main() ->
    process_flag(trap_exit, true),
    {ok, Sup} = supervisor:start_link(?MODULE, []),
    Ids = fun() -> lists:sort([{Id, is_pid(P)} || {Id, P, _, _} <- supervisor:which_children(Sup)]) end,
    io:format("~p~n", [Ids()]),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    [stop(Sup, Id, normal) || Id <- [perm, trans, temp]],
    io:format("~p~n", [Ids()]),
    {ok, _} = supervisor:start_child(Sup, #{id => temp, start => {?MODULE, start_child, [temp]}, restart => temporary}),
    [stop(Sup, Id, crash) || Id <- [trans, temp]],
    io:format("~p~n", [Ids()]),
    io:format("~p~n", [supervisor:count_children(Sup)]),
    exit(Sup, shutdown),
    receive {'EXIT', Sup, R} -> io:format("~p~n", [R]) end,
    ok.
stop(Sup, Id, Reason) ->
    case lists:keyfind(Id, 1, supervisor:which_children(Sup)) of
        {Id, P, _, _} when is_pid(P) ->
            M = monitor(process, P), P ! {stop, Reason},
            receive {'DOWN', M, _, _, _} -> ok end,
            _ = supervisor:which_children(Sup), ok;
        _ -> ok
    end.
init([]) ->
    Child = fun(Id, R) -> #{id => Id, start => {?MODULE, start_child, [Id]}, restart => R} end,
    {ok, {#{strategy => one_for_one, intensity => 10, period => 10},
          [Child(perm, permanent), Child(trans, transient), Child(temp, temporary)]}}.
start_child(_Id) ->
    {ok, spawn_link(fun() -> receive {stop, R} -> exit(R) end end)}.
