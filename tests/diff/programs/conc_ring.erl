%% Checks: a ring of N processes passing a token M times around; each hop increments a counter; final count deterministic.
-module(conc_ring).
-export([main/0]).

node_loop(Next) ->
    receive
        {token, 0, Count, Main} -> Main ! {finished, Count}, node_loop(Next);
        {token, Hops, Count, Main} -> Next ! {token, Hops - 1, Count + 1, Main}, node_loop(Next);
        {set_next, N} -> node_loop(N);
        stop -> ok
    end.

main() ->
    N = 50,
    First = spawn(fun() -> receive {set_next, Nx} -> node_loop(Nx) end end),
    Last = lists:foldl(fun(_, Prev) -> spawn(fun() -> node_loop(Prev) end) end, First, lists:seq(2, N)),
    First ! {set_next, Last},
    Last ! {token, N * 20, 0, self()},
    Count = receive {finished, C} -> C after 2000 -> timeout end,
    io:format("hops: ~p~n", [Count]),
    Last ! {token, 7, 100, self()},
    Count2 = receive {finished, C2} -> C2 after 2000 -> timeout end,
    io:format("hops: ~p~n", [Count2]),
    {Count, Count2}.
