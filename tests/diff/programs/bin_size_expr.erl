%% Checks: segment sizes from expressions and variables, unit multiplication, zero-size segments, size of a previous field in the same pattern.
-module(bin_size_expr).
-export([main/0]).

pack(Fields) -> << <<(byte_size(F)):8, F/binary>> || F <- Fields >>.

unpack(<<>>) -> [];
unpack(<<N:8, F:N/binary, R/binary>>) -> [F | unpack(R)].

main() ->
    N = 3,
    io:format("~w~n", [<<1:(N * 8)>>]),
    io:format("~w~n", [<<255:(N + 1)>>]),
    io:format("~w~n", [<<0:0, 7:8, 0:0>>]),
    io:format("~w~n", [<<5:N/unit:8>>]),
    P = pack([<<"a">>, <<>>, <<"xyz">>]),
    io:format("~w~n", [P]),
    io:format("~p~n", [unpack(P)]),
    <<Len:4, Data:Len/bitstring, Rest/bitstring>> = <<3:4, 2#101:3, 2#1:1>>,
    io:format("~p ~w ~w~n", [Len, Data, Rest]),
    Size = byte_size(<<"abcd">>),
    <<First:(Size div 2)/binary, _/binary>> = <<"abcd">>,
    io:format("~p~n", [First]),
    Bad = try <<1:(-1)>> catch error:R -> R end,
    io:format("~p~n", [Bad]),
    <<X:N/little-unit:8>> = <<1, 2, 3>>,
    X.
