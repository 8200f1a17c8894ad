%% Checks: OTP's base64 from source: encode/decode of lists and binaries, padding, mime_decode, errors.
-module(base64_encode_decode).
-export([main/0]).
main() ->
    io:format("~p~n", [[base64:encode(B) || B <- [<<>>, <<"f">>, <<"fo">>, <<"foo">>, <<0, 255, 128>>]]]),
    io:format("~p~n", [base64:encode_to_string("hello")]),
    io:format("~p~n", [base64:decode(<<"aGVsbG8=">>)]),
    io:format("~p~n", [base64:decode_to_string("Zm9vYmFy")]),
    io:format("~p~n", [base64:mime_decode(<<"Zm9v\r\nYmFy">>)]),
    R = try base64:decode(<<"a">>) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
