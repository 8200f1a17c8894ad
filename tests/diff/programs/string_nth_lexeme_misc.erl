%% Checks: OTP's string: pad with unicode widths, take (leading/trailing, complement), nth_lexeme out of range, lexemes of CRLF separators.
-module(string_nth_lexeme_misc).
-export([main/0]).
main() ->
    io:format("~p~n", [string:take("abc123", lists:seq($a, $z))]),
    io:format("~p~n", [string:take("abc123", lists:seq($0, $9), true, trailing)]),
    io:format("~p~n", [string:nth_lexeme("a b", 5, " ")]),
    io:format("~p~n", [string:lexemes("a\r\nb\nc", [[$\r, $\n], $\n])]),
    io:format("~p~n", [string:pad("x", 3, trailing, "ab")]),
    ok.
