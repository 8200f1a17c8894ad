%% Checks: string functions on UTF-8 binaries and code point lists: length, slice, reverse, uppercase of latin1 letters; printing them under a latin1 device.
-module(string_unicode).
-export([main/0]).

main() ->
    B = <<"h", 195, 164, "ll", 195, 182>>,
    io:format("~p ~p~n", [byte_size(B), string:length(B)]),
    io:format("~w~n", [string:slice(B, 1, 2)]),
    io:format("~w~n", [string:reverse(unicode:characters_to_list(B))]),
    L = [$h, 228, $l, $l, 246],
    io:format("~p~n", [L]),
    io:format("~p~n", [string:uppercase(L)]),
    io:format("~w~n", [string:uppercase(B)]),
    io:format("~p~n", [string:length([1087, 1088])]),
    io:format("~w~n", [unicode:characters_to_binary(L)]),
    io:format("~p~n", [unicode:characters_to_list(B) =:= L]),
    io:format("~p~n", [string:split(B, <<195, 164>>)]),
    io:format("~p~n", [string:find(L, [228])]),
    string:to_upper("abc") ++ string:to_lower("DEF").
