%% Checks: OTP's inet/inet_parse: IPv6 parsing (compressed, embedded IPv4, scope errors), ntoa of IPv6 and mapped addresses.
-module(inet_parse_v6).
-export([main/0]).
main() ->
    io:format("~p~n", [[inet:parse_address(S) || S <- ["::1", "fe80::1:2", "::", "2001:db8::ff00:42:8329", "::ffff:10.0.0.1", ":::"]]]),
    io:format("~p~n", [inet:parse_ipv6strict_address("1:2:3:4:5:6:7:8")]),
    io:format("~p~n", [inet:parse_ipv6_address("10.0.0.1")]),
    io:format("~p~n", [inet:ntoa({0, 0, 0, 0, 0, 0, 0, 1})]),
    io:format("~p~n", [inet:ntoa({8193, 3512, 0, 0, 0, 0, 0, 1})]),
    io:format("~p~n", [inet:ntoa({0, 0, 0, 0, 0, 65535, 2570, 1})]),
    io:format("~p~n", [[inet:is_ip_address(A) || A <- [{0, 0, 0, 0, 0, 0, 0, 1}, {1, 2}]]]),
    io:format("~p~n", [inet:ipv4_mapped_ipv6_address({10, 0, 0, 1})]),
    ok.
