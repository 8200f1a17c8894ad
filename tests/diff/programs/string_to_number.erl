%% Checks: OTP's string: to_integer and to_float with their rest and error results.
-module(string_to_number).
-export([main/0]).
main() ->
    io:format("~p~n", [string:to_integer("42abc")]),
    io:format("~p~n", [string:to_integer("-7")]),
    io:format("~p~n", [string:to_integer("x")]),
    io:format("~p~n", [string:to_float("3.25e2 rest")]),
    io:format("~p~n", [string:to_float("3")]),
    io:format("~p~n", [string:to_integer(<<"12 ">>)]),
    io:format("~p~n", [string:to_float(<<"1.5">>)]),
    ok.
