%% Checks: OTP's string obsolete API from source: substr, sub_string, words, sub_word, chars, copies, strip, to_upper/to_lower, span/cspan, rchr.
-module(string_old_api2).
-export([main/0]).
main() ->
    io:format("~p ~p~n", [string:substr("hello", 2, 3), string:sub_string("hello", 2)]),
    io:format("~p ~p~n", [string:words("a b  c"), string:sub_word("a-b-c", 2, $-)]),
    io:format("~p ~p~n", [string:chars($x, 3), string:copies("ab", 2)]),
    io:format("~p ~p~n", [string:strip("  x  "), string:strip("..x..", right, $.)]),
    io:format("~p ~p~n", [string:to_upper("mixED"), string:to_lower($Q)]),
    io:format("~p ~p~n", [string:span("abcde", "ba"), string:cspan("abcde", "dc")]),
    io:format("~p ~p~n", [string:chr("hello", $l), string:rchr("hello", $l)]),
    ok.
