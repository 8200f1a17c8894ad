%% Checks: ~ts and ~tp with code points above 255 on a latin1 stdout, ~tw, ~tc, and unicode binaries with ~ts.
-module(fmt_unicode_t).
-export([main/0]).

main() ->
    Cyr = [1087, 1088, 1080],
    io:format("~tp~n", [Cyr]),
    io:format("~tw~n", [Cyr]),
    io:format("~tp~n", [[$a, 228]]),
    io:format("~tp~n", [<<"abc">>]),
    io:format("~tp~n", [unicode:characters_to_binary([228])]),
    io:format("~ts~n", [[$a, 228, $b]]),
    io:format("~ts~n", [<<"plain">>]),
    io:format("~ts~n", [unicode:characters_to_binary("latin")]),
    io:format("~tc~n", [$z]),
    io:format("~tp~n", [{'ok', "mixed", [300]}]),
    io:format("~p~n", [io_lib:format("~tp", [[300]])]),
    ok.
