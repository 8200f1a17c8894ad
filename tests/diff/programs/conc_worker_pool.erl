%% Checks: a job queue served by a pool of workers that ask for work; every job done exactly once; per-job results sorted.
-module(conc_worker_pool).
-export([main/0]).

dispatcher([], Waiting, 0, Main) ->
    [W ! no_more || W <- Waiting],
    Main ! all_dispatched;
dispatcher([], Waiting, Workers, Main) ->
    receive {want_work, W} -> dispatcher([], [W | Waiting], Workers - 1, Main) end;
dispatcher([J | Js], Waiting, Workers, Main) ->
    receive {want_work, W} -> W ! {job, J}, dispatcher(Js, Waiting, Workers, Main) end.

worker(D, Main, Done) ->
    D ! {want_work, self()},
    receive
        {job, J} -> Main ! {result, J, J * J}, worker(D, Main, Done + 1);
        no_more -> Main ! {worker_done, Done}
    end.

main() ->
    Main = self(),
    Jobs = lists:seq(1, 30),
    NW = 4,
    D = spawn(fun() -> dispatcher(Jobs, [], NW, Main) end),
    [spawn(fun() -> worker(D, Main, 0) end) || _ <- lists:seq(1, NW)],
    Results = lists:sort([receive {result, J, R} -> {J, R} end || _ <- Jobs]),
    Counts = [receive {worker_done, C} -> C end || _ <- lists:seq(1, NW)],
    receive all_dispatched -> ok end,
    io:format("~p~n", [lists:sublist(Results, 5)]),
    io:format("jobs done: ~p total: ~p~n", [length(Results), lists:sum(Counts)]),
    io:format("~p~n", [[J || {J, _} <- Results] =:= Jobs]),
    lists:sum([R || {_, R} <- Results]).
