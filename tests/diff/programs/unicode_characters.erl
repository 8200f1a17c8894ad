%% Checks: unicode:characters_to_list/binary (UTF-8), and the byte order marks from OTP's unicode.
-module(unicode_characters).
-export([main/0]).
main() ->
    io:format("~w~n", [unicode:characters_to_list(<<"aé"/utf8>>)]),
    io:format("~w~n", [unicode:characters_to_binary([97, 233])]),
    io:format("~w~n", [unicode:characters_to_list([<<"a">>, "b", [$c]])]),
    io:format("~w~n", [unicode:bom_to_encoding(<<16#EF, 16#BB, 16#BF, $x>>)]),
    io:format("~w~n", [unicode:encoding_to_bom(utf8)]),
    ok.
