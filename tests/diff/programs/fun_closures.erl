%% Checks: closures capturing variables, funs returning funs, counters via closures, currying, fun as data.
-module(fun_closures).
-export([main/0]).

adder(N) -> fun(X) -> X + N end.
compose(F, G) -> fun(X) -> F(G(X)) end.
curry(F) -> fun(A) -> fun(B) -> F(A, B) end end.

main() ->
    Add5 = adder(5),
    io:format("~p~n", [Add5(10)]),
    Double = fun(X) -> X * 2 end,
    io:format("~p~n", [(compose(Add5, Double))(7)]),
    io:format("~p~n", [(compose(Double, Add5))(7)]),
    Mul = curry(fun(A, B) -> A * B end),
    io:format("~p~n", [(Mul(6))(7)]),
    Fs = [adder(N) || N <- [1, 2, 3]],
    io:format("~p~n", [[F(100) || F <- Fs]]),
    Y = 10,
    Shadow = fun(Y1) -> Y1 + Y end,
    io:format("~p~n", [Shadow(1)]),
    Pipeline = lists:foldl(fun compose/2, fun(X) -> X end, [Add5, Double, adder(-1)]),
    io:format("~p~n", [Pipeline(3)]),
    Multi = fun(0) -> zero; (N) when N < 0 -> negative; (_) -> positive end,
    io:format("~p~n", [[Multi(N) || N <- [-3, 0, 3]]]),
    io:format("~p~n", [erlang:fun_info(Add5, arity)]),
    io:format("~p~n", [is_function(Add5, 1)]),
    (fun() -> done end)().
