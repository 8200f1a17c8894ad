%% Checks: io_lib:format results written with ~s and their flat lengths: ~p of long lists, ~tp of unicode strings, ~e ~g floats, ~x prefix.
-module(io_lib_format_misc).
-export([main/0]).
main() ->
    S1 = lists:flatten(io_lib:format("~p", [lists:seq(1, 40)])),
    io:format("~p~n", [length(S1)]),
    io:format("~s~n", [io_lib:format("~e ~.3g ~.2f", [1234.5, 0.000123, 2.005])]),
    io:format("~s~n", [io_lib:format("~.16x ~.8#", [255, "0x", 8])]),
    io:format("~s~n", [io_lib:format("~10s|~-10s|", ["right", "left"])]),
    io:format("~s~n", [io_lib:format("~c~c~c", [$a, $b, $c])]),
    ok.
