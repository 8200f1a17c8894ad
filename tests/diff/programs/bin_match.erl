%% Checks: binary pattern matching with sizes, endianness, signedness, binary/bitstring tails and size from earlier segment.
-module(bin_match).
-export([main/0]).

parse_tlv(<<>>) -> [];
parse_tlv(<<Type:8, Len:8, Value:Len/binary, Rest/binary>>) ->
    [{Type, Value} | parse_tlv(Rest)].

main() ->
    <<A:8, B:16, C/binary>> = <<1, 0, 2, 3, 4>>,
    io:format("~p ~p ~p~n", [A, B, C]),
    <<L:16/little, S:8/signed>> = <<1, 2, 255>>,
    io:format("~p ~p~n", [L, S]),
    <<H:4, T:4>> = <<16#A5>>,
    io:format("~p ~p~n", [H, T]),
    <<F:64/float>> = <<1.25/float>>,
    io:format("~p~n", [F]),
    <<Bits:3/bitstring, Rest/bitstring>> = <<2#10110011>>,
    io:format("~w ~w~n", [Bits, Rest]),
    io:format("~p~n", [parse_tlv(<<1, 2, "hi", 2, 0, 3, 3, "abc">>)]),
    <<Sz:8, Payload:Sz/binary, _/binary>> = <<3, "xyzw">>,
    io:format("~p~n", [Payload]),
    R1 = case <<1, 2, 3>> of
             <<_:8, X:8>> -> {two, X};
             <<_:8, X:8, Y:8>> -> {three, X, Y}
         end,
    io:format("~p~n", [R1]),
    R2 = case <<1:5>> of
             <<_/binary>> -> binary;
             <<_/bitstring>> -> bitstring
         end,
    io:format("~p~n", [R2]),
    <<"GET ", Path/binary>> = <<"GET /index">>,
    io:format("~p~n", [Path]),
    <<N:32/signed-big>> = <<255, 255, 255, 254>>,
    io:format("~p~n", [N]),
    Bad = try <<_:16>> = list_to_binary([1]) catch error:E -> E end,
    io:format("~p~n", [Bad]),
    <<Int:3/unit:8>> = <<0, 1, 0>>,
    Int.
