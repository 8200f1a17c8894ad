%% Checks: OTP's uri_string: compose_query, dissect_query, quote/unquote (OTP 25), percent-decoding.
-module(uri_string_query).
-export([main/0]).
main() ->
    io:format("~p~n", [uri_string:compose_query([{"a", "1"}, {"b c", "d&e"}])]),
    io:format("~p~n", [uri_string:compose_query([{"x", true}, {"y", "é"}], [{encoding, utf8}])]),
    io:format("~p~n", [uri_string:dissect_query("a=1&b=x%20y&c")]),
    io:format("~p~n", [uri_string:dissect_query(<<"k=v">>)]),
    io:format("~p~n", [uri_string:quote("a b/c")]),
    io:format("~p~n", [uri_string:unquote("a%20b")]),
    io:format("~p~n", [uri_string:percent_decode(<<"%41%42">>)]),
    ok.
