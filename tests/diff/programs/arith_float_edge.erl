%% Checks: float edge cases: overflow to badarith, comparisons with large ints, round/trunc of big floats, float of huge ints, 2^53 precision limits.
-module(arith_float_edge).
-export([main/0]).

main() ->
    Big = list_to_float("1.0e308"),
    io:format("~p~n", [try Big * 10 catch error:R -> R end]),
    io:format("~p~n", [try float(1 bsl 1100) catch error:R2 -> R2 end]),
    io:format("~p~n", [try math:sqrt(-1) catch error:R3 -> R3 end]),
    P53 = 1 bsl 53,
    io:format("~p ~p~n", [P53 + 1 == float(P53 + 1), float(P53 + 1)]),
    io:format("~p ~p~n", [P53 + 1 > float(P53), P53 + 1 =:= P53 + 1.0]),
    io:format("~p~n", [round(1.0e20)]),
    io:format("~p~n", [trunc(-1.5e18)]),
    io:format("~p~n", [float(123456789012345678901234567890)]),
    io:format("~p~n", [0.1 + 0.7]),
    io:format("~p~n", [1.0 - 0.9]),
    io:format("~p~n", [100 * 1.1]),
    io:format("~p~n", [3 * 0.1 == 0.3]),
    io:format("~p~n", [math:sqrt(2)]),
    io:format("~p~n", [math:pow(10, -3)]),
    io:format("~p~n", [1 / 3 * 3]),
    io:format("~p~n", [lists:sum([0.1 || _ <- lists:seq(1, 10)])]),
    io:format("~p~n", [-0.0 == 0.0]),
    io:format("~p~n", [abs(-0.0)]),
    {1.0e-323, 4.9e-324 * 2}.
