%% Checks: number literals: base notation 2#, 16#, 36#, char literals $a $\n, float exponent forms, digit separators, large literals.
-module(arith_number_parse).
-export([main/0]).

main() ->
    io:format("~p~n", [[2#1010, 8#777, 16#ff, 16#FF, 36#zz, 3#210]]),
    io:format("~p~n", [[$a, $A, $\n, $\t, $\s, $\\, $\", $0]]),
    io:format("~p~n", [[1.0e3, 1.5E-3, 2.0e+2, 0.5e1]]),
    io:format("~p~n", [1_000_000]),
    io:format("~p~n", [16#FFFF_FFFF]),
    io:format("~p~n", [123456789012345678901234567890123456789]),
    io:format("~p~n", [-16#8000000000000000]),
    io:format("~p~n", [$\x41]),
    io:format("~p~n", [$\101]),
    io:format("~p~n", [[$\^A, $\^Z]]),
    io:format("~p~n", ["\x{41}\x42\101"]),
    {1.0e0, -0.0 + 0.0, 0.0 * -1}.
