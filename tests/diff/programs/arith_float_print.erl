%% Checks: shortest round-trip printing of floats with ~p and ~w.
-module(arith_float_print).
-export([main/0]).

main() ->
    Fs = [0.1, 0.2, 0.1 + 0.2, 1.0, -1.0, 0.0, -0.0, 1.0e10, 1.0e15, 1.0e16,
          123456789.0, 1.5e-5, 0.001, 0.0001, 3.141592653589793, 2.5, 100.0,
          1.0e100, 1.7976931348623157e308, 5.0e-324, 2.2250738585072014e-308,
          1/3, 2/3, 10/4, 1.0e-10, 123.456, -987.654e3, 9007199254740993.0],
    lists:foreach(fun(F) -> io:format("~p ~w~n", [F, F]) end, Fs),
    io:format("~p~n", [[0.5, 1.25, -2.75]]),
    {0.1, -0.0, 1.0e21}.
