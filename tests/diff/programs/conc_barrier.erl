%% Checks: a barrier: workers report phase 1, wait for a release, then report phase 2; collected results sorted per phase.
-module(conc_barrier).
-export([main/0]).

worker(Id, Main) ->
    Main ! {phase1, Id, Id * 10},
    receive release -> ok end,
    Main ! {phase2, Id, Id * 100}.

main() ->
    Ids = lists:seq(1, 6),
    Main = self(),
    Pids = [spawn(fun() -> worker(Id, Main) end) || Id <- Ids],
    P1 = lists:sort([receive {phase1, Id, V} -> {Id, V} end || _ <- Ids]),
    io:format("phase1: ~p~n", [P1]),
    Early = receive {phase2, _, _} -> too_early after 30 -> none_early end,
    io:format("~p~n", [Early]),
    [P ! release || P <- Pids],
    P2 = lists:sort([receive {phase2, Id, V} -> {Id, V} end || _ <- Ids]),
    io:format("phase2: ~p~n", [P2]),
    lists:sum([V || {_, V} <- P1 ++ P2]).
