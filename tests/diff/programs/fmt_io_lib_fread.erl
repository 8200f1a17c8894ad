%% Checks: OTP's io_lib:fread/2 with ~d ~s ~a ~f ~c and its more/error results.
-module(fmt_io_lib_fread).
-export([main/0]).
main() ->
    io:format("~p~n", [io_lib:fread("~d ~s", "42 hello rest")]),
    io:format("~p~n", [io_lib:fread("~a~d", "abc 7")]),
    io:format("~p~n", [io_lib:fread("~f", "3.5")]),
    io:format("~p~n", [io_lib:fread("~3c", "abcdef")]),
    io:format("~p~n", [io_lib:fread("~d", "x")]),
    io:format("~p~n", [io_lib:fread("~d ~d", "1")]),
    ok.
