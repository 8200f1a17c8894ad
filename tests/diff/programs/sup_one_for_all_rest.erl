%% Checks: one_for_all and rest_for_one strategies: which children restart when one exits abnormally (order of start ids).
-module(sup_one_for_all_rest).
-behaviour(supervisor).
-export([main/0, init/1, start_child/2]).
main() ->
    process_flag(trap_exit, true),
    [run(S) || S <- [one_for_all, rest_for_one]],
    ok.
run(Strategy) ->
    Log = ets:new(log, [public, bag]),
    {ok, Sup} = supervisor:start_link(?MODULE, {Strategy, Log}),
    ets:delete_all_objects(Log),
    {b, B, _, _} = lists:keyfind(b, 1, supervisor:which_children(Sup)),
    M = monitor(process, B), exit(B, crash), receive {'DOWN', M, _, _, _} -> ok end,
    _ = supervisor:which_children(Sup),
    io:format("~p restarted: ~p~n", [Strategy, lists:sort([Id || {Id} <- ets:tab2list(Log)])]),
    unlink(Sup), exit(Sup, shutdown),
    ok.
init({Strategy, Log}) ->
    C = fun(Id) -> #{id => Id, start => {?MODULE, start_child, [Id, Log]}} end,
    {ok, {#{strategy => Strategy, intensity => 5, period => 10}, [C(a), C(b), C(c)]}}.
start_child(Id, Log) ->
    ets:insert(Log, {Id}),
    {ok, spawn_link(fun() -> receive never -> ok end end)}.
