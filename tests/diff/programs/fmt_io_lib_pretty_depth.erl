%% Checks: ~P depth limits and io_lib:format with records-free deep terms, through OTP's io_lib_pretty.
-module(fmt_io_lib_pretty_depth).
-export([main/0]).
main() ->
    T = {a, [1, 2, 3, 4, 5], #{k => {x, y}}, "str"},
    io:format("~P~n", [T, 3]),
    io:format("~P~n", [lists:seq(1, 30), 10]),
    io:format("~s~n", [io_lib_pretty:print(T, [{column, 1}, {line_length, 20}])]),
    io:format("~s~n", [io_lib_pretty:print({deep, [[[[]]]]}, [{depth, 3}])]),
    ok.
