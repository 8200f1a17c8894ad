%% Checks: OTP's string: pad (leading/trailing/both), trim with characters, chomp, left/right/centre.
-module(string_pad_trim).
-export([main/0]).
main() ->
    io:format("~p~n", [string:pad("ab", 5)]),
    io:format("~p~n", [string:pad("ab", 5, leading, $.)]),
    io:format("~p~n", [string:pad("ab", 6, both, $*)]),
    io:format("~p~n", [string:trim("  hi  ")]),
    io:format("~p~n", [string:trim("xxhixx", both, "x")]),
    io:format("~p~n", [string:trim("hi\n", trailing)]),
    io:format("~p~n", [string:chomp("line\r\n")]),
    io:format("~p ~p ~p~n", [string:left("ab", 4), string:right("ab", 4, $0), string:centre("ab", 6)]),
    ok.
