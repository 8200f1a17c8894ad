%% Checks: OTP's string: uppercase/lowercase/casefold/titlecase, slice, length of graphemes, reverse, is_empty.
-module(string_case_slice).
-export([main/0]).
main() ->
    io:format("~p ~p~n", [string:uppercase("abc"), string:lowercase(<<"ABC">>)]),
    io:format("~p ~p~n", [string:casefold("ÄB"), string:titlecase("élan")]),
    io:format("~p ~p~n", [string:slice("hello world", 6), string:slice("hello", 1, 3)]),
    io:format("~p ~p~n", [string:length("abc"), string:length(<<"åäö"/utf8>>)]),
    io:format("~p~n", [string:reverse("abc")]),
    io:format("~p ~p~n", [string:is_empty(""), string:is_empty([[], <<>>])]),
    io:format("~p~n", [string:next_grapheme("abc")]),
    ok.
