%% Bench: 100,000 ping-pong round trips between two processes; returns the final counter.
-module(bench_pingpong).
-export([main/0]).

pong() ->
    receive
        {ping, From, N} -> From ! {pong, N + 1}, pong();
        stop -> ok
    end.

ping(_Pong, 0, Acc) -> Acc;
ping(Pong, K, Acc) ->
    Pong ! {ping, self(), Acc},
    receive {pong, N} -> ping(Pong, K - 1, N) end.

main() ->
    Pong = spawn(fun pong/0),
    Final = ping(Pong, 100000, 0),
    Pong ! stop,
    Final.
