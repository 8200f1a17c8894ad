%% Checks: OTP's inet/inet_parse from source: IPv4 parsing (strict and lenient forms), ntoa, is_ipv4_address.
-module(inet_parse_v4).
-export([main/0]).
main() ->
    io:format("~p~n", [[inet:parse_address(S) || S <- ["127.0.0.1", "10.1", "256.0.0.1", "0x7f.1", "a.b.c.d", ""]]]),
    io:format("~p~n", [[inet:parse_ipv4_address(S) || S <- ["192.168.0.1", "1.2.3"]]]),
    io:format("~p~n", [[inet:parse_ipv4strict_address(S) || S <- ["192.168.0.1", "1.2.3"]]]),
    io:format("~p~n", [inet:ntoa({192, 168, 1, 254})]),
    io:format("~p~n", [[inet:is_ipv4_address(A) || A <- [{1, 2, 3, 4}, {1, 2, 3, 256}, foo]]]),
    io:format("~p~n", [inet:parse_strict_address("8.8.8.8")]),
    ok.
