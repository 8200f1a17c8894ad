%% Checks: OTP's io_lib: fwrite/format with field widths, ~*, ~i, ~n; indentation, nl, chars_length.
-module(io_lib_chars_fwrite).
-export([main/0]).
main() ->
    io:format("~s|~n", [io_lib:fwrite("~*c", [4, $x])]),
    io:format("~s|~n", [io_lib:format("~i~w", [ignored, shown])]),
    io:format("~s|~n", [io_lib:format("~-8.3.0w", [7])]),
    io:format("~p~n", [io_lib:nl()]),
    io:format("~p~n", [io_lib:chars_length(["ab", [$c, ["d"]]])]),
    io:format("~s|~n", [io_lib:indentation("ab\n  c", 4)]),
    io:format("~s|~n", [io_lib:format("~.16B ~.2b ~8.16.0B", [255, 5, 48879])]),
    ok.
