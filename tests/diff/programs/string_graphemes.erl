%% Checks: OTP's string and unicode_util: grapheme clusters (combining marks, CRLF), to_graphemes, length vs code points.
-module(string_graphemes).
-export([main/0]).
main() ->
    S = [$e, 16#301, $x, $\r, $\n],
    io:format("~w~n", [string:to_graphemes(S)]),
    io:format("~p ~p~n", [string:length(S), length(S)]),
    io:format("~w~n", [string:reverse(S)]),
    io:format("~w~n", [string:slice(S, 1, 1)]),
    io:format("~w~n", [unicode_util:gc(S)]),
    io:format("~w~n", [unicode_util:cp(<<"ab">>)]),
    io:format("~w~n", [string:next_codepoint([16#1F600, $a])]),
    ok.
