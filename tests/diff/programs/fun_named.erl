%% Checks: named (recursive) funs, fun M:F/A, fun F/A, fun_info module/name for external funs, apply on funs.
-module(fun_named).
-export([main/0, triple/1]).

triple(X) -> 3 * X.
local_sq(X) -> X * X.

main() ->
    Fact = fun F(0) -> 1; F(N) -> N * F(N - 1) end,
    io:format("~p~n", [Fact(20)]),
    Fib = fun Fib(0) -> 0; Fib(1) -> 1; Fib(N) -> Fib(N - 1) + Fib(N - 2) end,
    io:format("~p~n", [[Fib(N) || N <- lists:seq(0, 15)]]),
    T = fun ?MODULE:triple/1,
    io:format("~p~n", [T(7)]),
    io:format("~p~n", [lists:map(fun local_sq/1, [1, 2, 3])]),
    io:format("~p~n", [lists:map(fun erlang:abs/1, [-1, 2, -3])]),
    io:format("~p~n", [erlang:fun_info(T, module)]),
    io:format("~p~n", [erlang:fun_info(T, name)]),
    io:format("~p~n", [erlang:fun_info(T, type)]),
    io:format("~p~n", [erlang:fun_info(fun lists:reverse/1, arity)]),
    io:format("~w~n", [fun lists:reverse/1]),
    M = lists, F = max,
    G = fun M:F/1,
    io:format("~p~n", [G([3, 9, 2])]),
    io:format("~p~n", [T == fun ?MODULE:triple/1]),
    Len = fun Len([]) -> 0; Len([_ | R]) -> 1 + Len(R) end,
    Len("count me").
