%% Checks: OTP's inet: ntoa of edge addresses, parse_address round trips, ipv4_mapped, is_ipv6_address, parse of zone-less link-local.
-module(inet_ntoa_forms).
-export([main/0]).
main() ->
    Addrs = ["0.0.0.0", "255.255.255.255", "::", "1::", "::2:3", "1:0:0:2::3", "ff02::1"],
    io:format("~p~n", [[inet:ntoa(element(2, inet:parse_address(A))) || A <- Addrs]]),
    io:format("~p~n", [[inet:is_ipv6_address(A) || A <- [{0, 0, 0, 0, 0, 0, 0, 70000}, {1, 2, 3, 4, 5, 6, 7, 8}]]]),
    io:format("~p~n", [inet:ntoa({1, 2, 3})]),
    io:format("~p~n", [inet:parse_address("fe80::1%eth0")]),
    ok.
