%% Checks: string:split (leading/trailing/all), trim variants, to_upper/to_lower, length, prefix, slice, find, replace, lexemes/tokens.
-module(string_basic).
-export([main/0]).

main() ->
    io:format("~p~n", [string:split("a,b,c", ",")]),
    io:format("~p~n", [string:split("a,b,c", ",", trailing)]),
    io:format("~p~n", [string:split("a,b,,c", ",", all)]),
    io:format("~p~n", [string:split(<<"k=v">>, "=")]),
    io:format("~p~n", [string:trim("  padded  ")]),
    io:format("~p~n", [string:trim("  padded  ", leading)]),
    io:format("~p~n", [string:trim("xxhixx", both, "x")]),
    io:format("~p~n", [string:trim(<<"\t bin \n">>)]),
    io:format("~p ~p~n", [string:to_upper("Hello, World"), string:to_lower("MiXeD")]),
    io:format("~p~n", [string:uppercase(<<"abc">>)]),
    io:format("~p ~p~n", [string:length("hello"), string:length(<<"bin">>)]),
    io:format("~p ~p~n", [string:prefix("racewit", "race"), string:prefix("racewit", "wit")]),
    io:format("~p ~p~n", [string:slice("abcdefgh", 2, 3), string:slice(<<"abcdefgh">>, 5)]),
    io:format("~p~n", [string:find("one two two", "two")]),
    io:format("~p~n", [string:find("one two two", "two", trailing)]),
    io:format("~p~n", [string:find("abc", "z")]),
    io:format("~p~n", [string:replace("a.b.c", ".", "-")]),
    io:format("~p~n", [string:replace("a.b.c", ".", "-", all)]),
    io:format("~p~n", [lists:flatten(string:replace("a.b.c", ".", "--", all))]),
    io:format("~p~n", [string:lexemes("  many   spaces here ", " ")]),
    io:format("~p~n", [string:tokens("a,b;;c", ",;")]),
    io:format("~p~n", [string:is_empty("")]),
    io:format("~p~n", [string:equal("abc", <<"abc">>)]),
    io:format("~p~n", [string:reverse("stressed")]),
    io:format("~p~n", [string:pad("7", 3, leading, $0)]),
    io:format("~p~n", [string:to_integer("42abc")]),
    io:format("~p~n", [string:to_float("3.5e2 rest")]),
    io:format("~p~n", [string:to_integer("none")]),
    string:join(["x", "y", "z"], "+").
