%% Checks: two processes start the same application at once: both get the same answer (the second waits for the first), the callback runs once.
-module(world_app_concurrent_start).
-behaviour(application).
-export([main/0, start/2, stop/1]).
main() ->
    ok = application:load({application, cs_demo, [{vsn, "1"}, {mod, {?MODULE, []}}]}),
    Self = self(),
    [spawn(fun() -> Self ! {res, application:start(cs_demo)} end) || _ <- [1, 2]],
    Rs = [receive {res, R} -> R end || _ <- [1, 2]],
    io:format("~p~n", [lists:sort(Rs)]),
    io:format("~p~n", [ets:lookup(cs_demo_tab, starts)]),
    ok = application:stop(cs_demo),
    ok.
start(normal, []) ->
    Pid = spawn_link(fun() ->
                             ets:new(cs_demo_tab, [named_table, public]),
                             ets:insert(cs_demo_tab, {starts, 1}),
                             receive stop -> ok end
                     end),
    wait(),
    {ok, Pid}.
wait() ->
    case ets:info(cs_demo_tab) of undefined -> timer:sleep(1), wait(); _ -> ok end.
stop(_) -> ok.
