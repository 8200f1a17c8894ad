%% Checks: counters and atomics updated from several processes: totals are exact whatever the interleaving.
-module(world_counters_concurrent).
-export([main/0]).
main() ->
    C = counters:new(1, []), A = atomics:new(1, []),
    Self = self(),
    Pids = [spawn(fun() ->
                          [begin counters:add(C, 1, 1), atomics:add(A, 1, 2) end || _ <- lists:seq(1, 100)],
                          Self ! {done, self()}
                  end) || _ <- lists:seq(1, 5)],
    [receive {done, P} -> ok end || P <- Pids],
    io:format("~p ~p~n", [counters:get(C, 1), atomics:get(A, 1)]),
    ok.
