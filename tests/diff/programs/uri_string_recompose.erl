-module(uri_string_recompose).
-export([main/0]).
main() ->
    io:format("~p~n", [uri_string:recompose(#{scheme => "http", host => "h.org", port => 8080, path => "/x", query => "a=1"})]),
    io:format("~p~n", [uri_string:resolve("../c", "http://h/a/b/d")]),
    io:format("~p~n", [uri_string:normalize("HTTP://Example.COM:80/a/./b/../c")]),
    io:format("~p~n", [uri_string:normalize(<<"https://h:443/%7efoo">>)]),
    ok.
