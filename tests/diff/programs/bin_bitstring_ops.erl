%% Checks: bitstrings: odd sizes, concatenation of bitstrings, bit_size, list_to_bitstring, bitstring_to_list, is_binary vs is_bitstring, matching bits.
-module(bin_bitstring_ops).
-export([main/0]).

bits(<<>>) -> [];
bits(<<B:1, Rest/bitstring>>) -> [B | bits(Rest)].

main() ->
    X = <<5:3, 1:2>>,
    io:format("~w ~p~n", [X, bit_size(X)]),
    Y = <<X/bitstring, X/bitstring, 0:1>>,
    io:format("~w ~p~n", [Y, bit_size(Y)]),
    io:format("~p~n", [bits(<<2#10110:5>>)]),
    io:format("~w~n", [list_to_bitstring([<<1>>, <<1:1>>, [<<2:2>>]])]),
    io:format("~w~n", [bitstring_to_list(<<1, 2, 3:4>>)]),
    io:format("~p ~p~n", [is_binary(<<1:8>>), is_binary(<<1:7>>)]),
    io:format("~p ~p~n", [is_bitstring(<<1:7>>), is_bitstring(<<>>)]),
    io:format("~w~n", [<< <<B:1>> || B <- bits(<<255>>) >>]),
    io:format("~p~n", [byte_size(<<1:17>>)]),
    <<A:3, B:5/bitstring>> = <<200>>,
    io:format("~p ~w~n", [A, B]),
    Err = try iolist_to_binary([<<1:3>>]) catch error:R -> R end,
    io:format("~p~n", [Err]),
    io:format("~p~n", [erlang:bit_size(<<"abc", 1:1>>)]),
    <<1:1, 0:1, 1:1>>.
