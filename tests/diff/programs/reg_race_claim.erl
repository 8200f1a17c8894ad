%% Checks: many processes race to register the same name; exactly one wins (outcome counted, not who), the rest get badarg.
-module(reg_race_claim).
-export([main/0]).

main() ->
    Self = self(),
    N = 20,
    Pids = [spawn(fun() ->
                          R = try register(rw_leader, self()) of true -> won
                              catch error:badarg -> lost end,
                          Self ! {claim, R},
                          receive stop -> ok end
                  end) || _ <- lists:seq(1, N)],
    Results = [receive {claim, R} -> R end || _ <- Pids],
    io:format("~p~n", [lists:sort(Results)]),
    Winner = whereis(rw_leader),
    io:format("winner is one of us: ~p~n", [lists:member(Winner, Pids)]),
    Refs = [{monitor(process, P), P} || P <- Pids],
    [P ! stop || P <- Pids],
    [receive {'DOWN', R, process, P, _} -> ok end || {R, P} <- Refs],
    io:format("~p~n", [whereis(rw_leader)]),
    {length([x || won <- Results]), length([x || lost <- Results])}.
