%% Checks: one_for_all and rest_for_one restart sets, observed by which child ids start (logged to the main process, sorted per round).
-module(sup_strategies).
-behaviour(supervisor).
-export([main/0, init/1, start_child/2, loop/0]).

init(Strategy) ->
    Main = whereis(rw_strategy_main),
    Spec = fun(Id) -> #{id => Id, start => {?MODULE, start_child, [Id, Main]}} end,
    {ok, {#{strategy => Strategy, intensity => 10, period => 10}, [Spec(c1), Spec(c2), Spec(c3)]}}.

start_child(Id, Main) ->
    Pid = spawn_link(?MODULE, loop, []),
    register(Id, Pid),
    Main ! {started, Id},
    {ok, Pid}.

loop() -> receive crash -> exit(crashed) end.

collect() ->
    receive {started, Id} -> [Id | collect()] after 0 -> [] end.

run_round(Strategy) ->
    {ok, Sup} = supervisor:start_link(?MODULE, Strategy),
    Initial = collect(),
    C2 = whereis(c2),
    Ref2 = monitor(process, C2),
    C2 ! crash,
    receive {'DOWN', Ref2, process, C2, _} -> ok end,
    _ = supervisor:which_children(Sup),
    Restarted = collect(),
    unlink(Sup),
    Ref = monitor(process, Sup),
    exit(Sup, shutdown),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    {Strategy, Initial, lists:sort(Restarted)}.

main() ->
    register(rw_strategy_main, self()),
    [io:format("~p~n", [run_round(S)]) || S <- [one_for_one, one_for_all, rest_for_one]],
    unregister(rw_strategy_main).
