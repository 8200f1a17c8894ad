%% Checks: OTP's uri_string from source: parse of full, relative and invalid URIs; binaries in, binaries out.
-module(uri_string_parse).
-export([main/0]).
main() ->
    io:format("~p~n", [uri_string:parse("https://user:pw@example.com:8443/a/b?q=1&r=2#frag")]),
    io:format("~p~n", [uri_string:parse("/relative/path?x")]),
    io:format("~p~n", [uri_string:parse("mailto:someone@example.org")]),
    io:format("~p~n", [uri_string:parse(<<"http://[::1]:80/">>)]),
    io:format("~p~n", [uri_string:parse("http://a b")]),
    ok.
