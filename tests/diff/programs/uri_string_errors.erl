%% Checks: OTP's uri_string error tuples: invalid characters, bad percent-encoding, invalid port; allowed characters in paths.
-module(uri_string_errors).
-export([main/0]).
main() ->
    io:format("~p~n", [uri_string:parse("http://h:port/")]),
    io:format("~p~n", [uri_string:parse("http://h/%zz")]),
    io:format("~p~n", [uri_string:parse("foo://h/a;b=c/d")]),
    io:format("~p~n", [uri_string:recompose(#{path => "/a b"})]),
    io:format("~p~n", [uri_string:dissect_query("a=%2")]),
    io:format("~p~n", [uri_string:parse("//authority.only")]),
    ok.
