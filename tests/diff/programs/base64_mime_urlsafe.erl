%% Checks: OTP's base64: mime_decode skipping invalid characters, decode of lists, encode of lists, padding-less input errors.
-module(base64_mime_urlsafe).
-export([main/0]).
main() ->
    io:format("~p~n", [base64:mime_decode("Zm9v!YmFy")]),
    io:format("~p~n", [base64:mime_decode_to_string(<<"aGk=\n">>)]),
    io:format("~p~n", [base64:decode("YQ==")]),
    io:format("~p~n", [base64:encode([0, 1, 2, 3])]),
    io:format("~p~n", [base64:encode(list_to_binary(lists:seq(0, 60)))]),
    R = try base64:decode("YQ=") catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
