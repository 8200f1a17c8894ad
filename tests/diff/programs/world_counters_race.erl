%% Checks: counters as a lost-update-free alternative to a read-then-write on ETS: two processes increment, the total is exact.
-module(world_counters_race).
-export([main/0]).
main() ->
    C = counters:new(2, [atomics]),
    Self = self(),
    Work = fun(I) -> fun() -> [counters:add(C, I, 1) || _ <- lists:seq(1, 50)], Self ! {self(), ok} end end,
    P1 = spawn(Work(1)), P2 = spawn(Work(2)), P3 = spawn(Work(1)),
    [receive {P, ok} -> ok end || P <- [P1, P2, P3]],
    io:format("~p~n", [[counters:get(C, 1), counters:get(C, 2)]]),
    ok.
