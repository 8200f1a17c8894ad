%% Checks: OTP's string: lexemes, split (leading/trailing/all), tokens, join, nth_lexeme.
-module(string_lexemes_tokens).
-export([main/0]).
main() ->
    io:format("~p~n", [string:lexemes("a,b,,c", ",")]),
    io:format("~p~n", [string:split("a=b=c", "=")]),
    io:format("~p~n", [string:split("a=b=c", "=", trailing)]),
    io:format("~p~n", [string:split("a=b=c", "=", all)]),
    io:format("~p~n", [string:tokens("one two  three", " ")]),
    io:format("~p~n", [string:join(["x", "y", "z"], "-")]),
    io:format("~p~n", [string:nth_lexeme("a b c", 2, " ")]),
    io:format("~p~n", [string:lexemes(<<"α β"/utf8>>, " ")]),
    ok.
