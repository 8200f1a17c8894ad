%% Checks: binary construction with sizes, units, big/little endian, signed values, floats, and truncation of too-large values.
-module(bin_construct).
-export([main/0]).

main() ->
    io:format("~w~n", [<<1, 2, 3>>]),
    io:format("~w~n", [<<258:16>>]),
    io:format("~w~n", [<<258:16/little>>]),
    io:format("~w~n", [<<-1:8>>]),
    io:format("~w~n", [<<-2:16/signed-little>>]),
    io:format("~w~n", [<<300:8>>]),
    io:format("~w~n", [<<1:4, 15:4>>]),
    io:format("~w~n", [<<5:3>>]),
    io:format("~w~n", [<<1:1, 0:1, 1:1, 1:5, 7:3>>]),
    io:format("~w~n", [<<2:2/unit:8>>]),
    io:format("~w~n", [<<1.5/float>>]),
    io:format("~w~n", [<<1.5:32/float>>]),
    io:format("~w~n", [<<-0.5:64/float-little>>]),
    X = 16#12345678,
    io:format("~w~n", [<<X:32/big, X:32/little>>]),
    io:format("~w~n", [<<X:24>>]),
    B = <<"abc">>,
    io:format("~w~n", [<<B/binary, "de", 0>>]),
    io:format("~w~n", [<<B:2/binary>>]),
    io:format("~w~n", [<<(1 bsl 70):72>>]),
    io:format("~p~n", [<<"text", 10, "more">>]),
    io:format("~w~n", [<<"a", <<1:4>>/bitstring, 2:4>>]),
    N = 12,
    io:format("~w~n", [<<7:N>>]),
    Bad = try <<B:4/binary>> catch error:R -> R end,
    io:format("~p~n", [Bad]),
    {byte_size(<<X:32>>), bit_size(<<1:3, 2:6>>)}.
