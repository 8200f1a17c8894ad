%% Checks: a realistic binary protocol: encode/decode length-prefixed frames with a header of flags and a 16-bit big-endian id.
-module(bin_protocol).
-export([main/0]).

encode({Id, Flags, Payload}) when is_binary(Payload) ->
    Len = byte_size(Payload),
    <<1:4, Flags:4, Id:16/big, Len:32/big, Payload/binary>>.

decode(<<1:4, Flags:4, Id:16/big, Len:32/big, Payload:Len/binary, Rest/binary>>) ->
    {ok, {Id, Flags, Payload}, Rest};
decode(<<1:4, _:4, _:16, Len:32, Partial/binary>>) when byte_size(Partial) < Len ->
    {more, Len - byte_size(Partial)};
decode(<<V:4, _/bitstring>>) when V =/= 1 ->
    {error, {bad_version, V}};
decode(_) ->
    {more, unknown}.

decode_all(Bin) ->
    case decode(Bin) of
        {ok, F, Rest} -> [F | decode_all(Rest)];
        Other -> [Other]
    end.

main() ->
    Frames = [{1, 0, <<"hello">>}, {300, 15, <<>>}, {65535, 3, <<0, 1, 2>>}],
    Wire = iolist_to_binary([encode(F) || F <- Frames]),
    io:format("~w~n", [Wire]),
    io:format("~p~n", [decode_all(Wire)]),
    io:format("~p~n", [decode(binary:part(Wire, 0, 10))]),
    io:format("~p~n", [decode(<<2:4, 0:4, 0:16>>)]),
    io:format("~p~n", [decode(<<>>)]),
    byte_size(Wire).
