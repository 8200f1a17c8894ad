%% Bench: naive doubly-recursive fib(27); main/0 returns the value.
-module(bench_fib).
-export([main/0]).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

main() ->
    fib(27).
