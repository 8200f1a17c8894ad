%% Bench: 40,000 processes spawned, each sends its number back; main/0
%% returns their sum.
-module(bench_spawn).
-export([main/0]).

main() ->
    Self = self(),
    N = 40000,
    [spawn(fun() -> Self ! {done, I} end) || I <- lists:seq(1, N)],
    collect(N, 0).

collect(0, Acc) -> Acc;
collect(K, Acc) -> receive {done, I} -> collect(K - 1, Acc + I) end.
