%% Checks: printing binaries: printable vs non-printable with ~p, ~w, ~s; utf8 content under a latin1 device; long binaries wrap; ~P truncation of binaries.
-module(fmt_binaries).
-export([main/0]).

main() ->
    io:format("~p~n", [<<"plain text">>]),
    io:format("~p~n", [<<"with\nnewline\ttab">>]),
    io:format("~p~n", [<<1, 2, 3>>]),
    io:format("~p~n", [<<"abc", 0>>]),
    io:format("~w~n", [<<"abc">>]),
    io:format("~s~n", [<<"as string">>]),
    io:format("~p~n", [<<"caf", 195, 169>>]),
    io:format("~p~n", [<<"caf", 233>>]),
    io:format("~p~n", [<<>>]),
    io:format("~p~n", [<<"quote\"back\\">>]),
    io:format("~p~n", [[<<"in">>, <<"list">>]]),
    io:format("~p~n", [list_to_binary(lists:duplicate(100, $x))]),
    io:format("~P~n", [list_to_binary(lists:seq(1, 50)), 5]),
    io:format("~p~n", [<<255, 254>>]),
    io:format("~p~n", [<<"abc", 1:1>>]),
    {<<"result">>, <<200>>}.
