%% Checks: OTP's io_lib from source: write/1,2 with depth, write_atom, write_string, write_char, print.
-module(io_lib_write).
-export([main/0]).
main() ->
    io:format("~s~n", [io_lib:write({a, [1, 2], "s", <<"b">>})]),
    io:format("~s~n", [io_lib:write([1, [2, [3, [4]]]], 3)]),
    io:format("~s ~s~n", [io_lib:write_atom('hello world'), io_lib:write_atom(ok)]),
    io:format("~s~n", [io_lib:write_string("tab\there")]),
    io:format("~s ~s~n", [io_lib:write_char($a), io_lib:write_char($\n)]),
    io:format("~s~n", [io_lib:print({x, lists:seq(1, 5)})]),
    io:format("~p~n", [io_lib:write_atom_as_latin1('å')]),
    ok.
