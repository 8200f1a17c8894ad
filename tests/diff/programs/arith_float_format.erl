%% Checks: ~e ~f ~g on many magnitudes and signs, float_to_list default (scientific 20 digits), rounding of .5 cases in ~.Nf.
-module(arith_float_format).
-export([main/0]).

main() ->
    Fs = [0.0, 1.0, -1.5, 123.456, 0.000123, 1.0e20, 9.999, 0.5, 1.005, 2.675],
    lists:foreach(fun(F) ->
                          io:format("~f | ~.2f | ~e | ~.3e | ~g~n", [F, F, F, F, F])
                  end, Fs),
    io:format("~s~n", [float_to_list(0.1)]),
    io:format("~s~n", [float_to_list(-123.0)]),
    io:format("~s~n", [float_to_list(1.0e-300)]),
    io:format("~s~n", [float_to_list(1.0, [{decimals, 0}])]),
    io:format("~s~n", [float_to_list(0.125, [{decimals, 2}])]),
    io:format("~s~n", [float_to_list(1.0e10, [{decimals, 4}, compact])]),
    io:format("~s~n", [float_to_list(12345.678, [{scientific, 3}])]),
    io:format("~s~n", [io_lib:format("~15.4f|", [math:pi()])]),
    io:format("~s~n", [io_lib:format("~-15.4e|", [math:pi()])]),
    {1.0e-5, 1.0e-4, 123456789012345.0, 1234567890123456789.0}.
