%% Checks: OTP's io_lib: printable_list/printable_latin1_list/printable_unicode_list, deep_char_list, char_list, latin1_char_list.
-module(io_lib_predicates).
-export([main/0]).
main() ->
    io:format("~p~n", [[io_lib:printable_list(L) || L <- ["abc", [1, 2], "a\nb", []]]]),
    io:format("~p~n", [[io_lib:printable_latin1_list(L) || L <- ["åäö", [300]]]]),
    io:format("~p~n", [[io_lib:printable_unicode_list(L) || L <- [[300, 400], [16#110000]]]]),
    io:format("~p~n", [[io_lib:deep_char_list(L) || L <- [["a", ["b"]], [a]]]]),
    io:format("~p~n", [[io_lib:char_list(L) || L <- ["x", [-1]]]]),
    io:format("~p~n", [[io_lib:latin1_char_list(L) || L <- ["x", [256]]]]),
    ok.
