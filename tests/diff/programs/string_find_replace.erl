%% Checks: OTP's string: find (leading/trailing), replace, prefix, str/rstr, equal with case folding.
-module(string_find_replace).
-export([main/0]).
main() ->
    io:format("~p~n", [string:find("a.b.c", ".")]),
    io:format("~p~n", [string:find("a.b.c", ".", trailing)]),
    io:format("~p~n", [string:find("abc", "x")]),
    io:format("~p~n", [string:replace("a-b-c", "-", "+")]),
    io:format("~p~n", [string:replace("a-b-c", "-", "+", all)]),
    io:format("~p ~p~n", [string:prefix("foobar", "foo"), string:prefix("foobar", "x")]),
    io:format("~p ~p~n", [string:str("hello", "ll"), string:rstr("hello hello", "ll")]),
    io:format("~p ~p~n", [string:equal("ABC", "abc", true), string:equal("ABC", "abc")]),
    ok.
