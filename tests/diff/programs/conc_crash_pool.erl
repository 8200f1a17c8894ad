%% Checks: a pool of monitored workers where some crash; the collected {Id, Outcome} list sorted by id is deterministic.
-module(conc_crash_pool).
-export([main/0]).

work(Id) when Id rem 4 =:= 0 -> exit({bad_input, Id});
work(Id) when Id rem 7 =:= 0 -> error(unlucky);
work(Id) -> exit({ok, Id * 10}).

main() ->
    Ids = lists:seq(1, 15),
    Mons = [{spawn_monitor(fun() -> work(Id) end), Id} || Id <- Ids],
    Outcomes = [receive
                    {'DOWN', Ref, process, Pid, {ok, V}} -> {Id, {ok, V}};
                    {'DOWN', Ref, process, Pid, {unlucky, St}} when is_list(St) -> {Id, unlucky};
                    {'DOWN', Ref, process, Pid, Other} -> {Id, Other}
                end || {{Pid, Ref}, Id} <- Mons],
    [io:format("~p~n", [O]) || O <- lists:sort(Outcomes)],
    length([x || {_, {ok, _}} <- Outcomes]).
