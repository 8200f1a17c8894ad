%% Checks: legacy string functions: str, rstr, substr, chr, rchr, sub_word, words, centre, left, right, copies, strip, span/cspan, concat.
-module(string_old_api).
-export([main/0]).

main() ->
    S = "hello world hello",
    io:format("~p ~p~n", [string:str(S, "hello"), string:rstr(S, "hello")]),
    io:format("~p~n", [string:str(S, "nope")]),
    io:format("~p ~p~n", [string:substr(S, 7), string:substr(S, 7, 5)]),
    io:format("~p ~p~n", [string:chr(S, $o), string:rchr(S, $o)]),
    io:format("~p ~p~n", [string:sub_word(S, 2), string:words(S)]),
    io:format("~p~n", [string:sub_word("a-b-c", 3, $-)]),
    io:format("[~s] [~s] [~s]~n", [string:centre("hi", 6), string:left("hi", 5), string:right("hi", 5)]),
    io:format("~p~n", [string:left("toolong", 3)]),
    io:format("~p~n", [string:right("7", 4, $0)]),
    io:format("~p~n", [string:copies("ab", 3)]),
    io:format("~p ~p~n", [string:strip("  s  "), string:strip("..s..", right, $.)]),
    io:format("~p ~p~n", [string:span("123abc", "0123456789"), string:cspan("abc123", "0123456789")]),
    io:format("~p~n", [string:concat("con", "cat")]),
    io:format("~p~n", [string:len("four")]),
    io:format("~p~n", [string:to_upper($a)]),
    string:tokens("path/to//file", "/").
