%% Checks: OTP's inet: strict IPv6 parsing rejects IPv4 text, lenient accepts it as mapped; parse_ipv4_address of short forms.
-module(inet_parse_strict_v6).
-export([main/0]).
main() ->
    io:format("~p~n", [inet:parse_ipv6strict_address("10.0.0.1")]),
    io:format("~p~n", [inet:parse_ipv6_address("::10.0.0.1")]),
    io:format("~p~n", [[inet:parse_ipv4_address(S) || S <- ["127.1", "10", "1.2.3.4.5"]]]),
    io:format("~p~n", [inet:parse_address("1:2:3:4:5:6:7:8:9")]),
    io:format("~p~n", [inet:parse_address("::ffff:1.2.3.4")]),
    ok.
