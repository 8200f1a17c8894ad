%% Checks: OTP's string on binaries and mixed chardata: split/lexemes/trim on UTF-8 binaries, find returning the same type.
-module(string_unicode_ops).
-export([main/0]).
main() ->
    B = <<"ån,två,tre"/utf8>>,
    io:format("~w~n", [string:split(B, ",")]),
    io:format("~w~n", [string:lexemes([<<"a b">>, " c"], " ")]),
    io:format("~w~n", [string:trim(<<"  x  ">>)]),
    io:format("~w~n", [string:find(<<"hello">>, "ll")]),
    io:format("~w~n", [string:uppercase(<<"ö"/utf8>>)]),
    io:format("~w~n", [string:length(<<"ö"/utf8>>)]),
    ok.
