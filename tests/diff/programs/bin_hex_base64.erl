%% Checks: hex encoding by comprehension and binary:encode_hex/decode_hex, base64 encode/decode, integer_to_binary base 16 padding.
-module(bin_hex_base64).
-export([main/0]).

hex(Bin) -> << <<(hexdig(N))>> || <<N:4>> <= Bin >>.
hexdig(N) when N < 10 -> $0 + N;
hexdig(N) -> $a + N - 10.

main() ->
    B = <<"Racewit!", 0, 255>>,
    io:format("~p~n", [hex(B)]),
    io:format("~p~n", [binary:encode_hex(B)]),
    io:format("~p~n", [binary:decode_hex(<<"DEADbeef">>)]),
    io:format("~p~n", [base64:encode(<<"hello world">>)]),
    io:format("~p~n", [base64:encode("ab")]),
    io:format("~p~n", [base64:decode(<<"aGVsbG8gd29ybGQ=">>)]),
    io:format("~p~n", [base64:encode_to_string(<<1, 2, 3, 4>>)]),
    io:format("~p~n", [base64:decode(base64:encode(<<0, 0, 0>>))]),
    io:format("~p~n", [[io_lib:format("~2.16.0b", [X]) || <<X>> <= <<1, 171, 255>>]]),
    io:format("~s~n", [[io_lib:format("~2.16.0B", [X]) || <<X>> <= <<1, 171, 255>>]]),
    io:format("~p~n", [try base64:decode(<<"!!!">>) catch error:_ -> bad_base64 end]),
    byte_size(base64:encode(list_to_binary(lists:seq(1, 100)))).
