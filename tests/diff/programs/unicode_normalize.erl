%% Checks: unicode normalization forms (nfc, nfd, nfkc, nfkd) from OTP's unicode and unicode_util.
-module(unicode_normalize).
-export([main/0]).
main() ->
    io:format("~w~n", [unicode:characters_to_nfd_list([$é])]),
    io:format("~w~n", [unicode:characters_to_nfc_list([$e, 16#301])]),
    io:format("~w~n", [unicode:characters_to_nfkd_list([16#FB01])]),
    io:format("~w~n", [unicode:characters_to_nfkc_binary([16#2460])]),
    io:format("~w~n", [unicode:characters_to_nfc_binary(<<"abc">>)]),
    ok.
