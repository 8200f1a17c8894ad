%% Checks: float arithmetic, mixed int/float, / always returns float, round/trunc/float, comparisons.
-module(arith_float_ops).
-export([main/0]).

main() ->
    io:format("~p~n", [7 / 2]),
    io:format("~p~n", [6 / 3]),
    io:format("~p~n", [1 + 0.5]),
    io:format("~p~n", [2 * 1.5]),
    io:format("~p~n", [-7 / 2]),
    io:format("~p ~p ~p ~p~n", [round(2.5), round(-2.5), round(3.49), round(-0.5)]),
    io:format("~p ~p ~p~n", [trunc(2.9), trunc(-2.9), trunc(1.0e20)]),
    io:format("~p ~p~n", [float(3), float(-12345678901234567890)]),
    io:format("~p ~p~n", [1 == 1.0, 1 =:= 1.0]),
    io:format("~p ~p~n", [1 < 1.5, 2 > 1.5]),
    io:format("~p~n", [abs(-3.5)]),
    io:format("~p~n", [math:sqrt(16)]),
    io:format("~p~n", [math:pow(2, 10)]),
    io:format("~p~n", [math:pi()]),
    io:format("~p~n", [floor(-3.5)]),
    io:format("~p~n", [ceil(-3.5)]),
    io:format("~p~n", [floor(7)]),
    {max(1, 1.0), min(1, 1.0), max(2, 1.5), 0.1 * 3}.
