%% Checks: spawning 1000 processes that each compute and reply; sum of replies; all exit normally (counted via monitors).
-module(proc_many).
-export([main/0]).

main() ->
    Self = self(),
    N = 1000,
    Refs = [begin
                {_, Ref} = spawn_monitor(fun() -> Self ! {sq, I * I} end),
                Ref
            end || I <- lists:seq(1, N)],
    Sum = lists:sum([receive {sq, V} -> V end || _ <- lists:seq(1, N)]),
    io:format("sum of squares: ~p~n", [Sum]),
    Reasons = [receive {'DOWN', R, process, _, Why} -> Why end || R <- Refs],
    io:format("~p~n", [lists:usort(Reasons)]),
    io:format("~p~n", [length(Reasons)]),
    Sum =:= N * (N + 1) * (2 * N + 1) div 6.
