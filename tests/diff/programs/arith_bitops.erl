%% Checks: band, bor, bxor, bnot, bsl, bsr incl. negative numbers and bignum shifts.
-module(arith_bitops).
-export([main/0]).

main() ->
    io:format("~p ~p ~p~n", [12 band 10, 12 bor 10, 12 bxor 10]),
    io:format("~p ~p~n", [bnot 0, bnot 5]),
    io:format("~p ~p~n", [-1 band 255, -256 bor 15]),
    io:format("~p ~p~n", [1 bsl 10, 1024 bsr 3]),
    io:format("~p ~p~n", [-16 bsr 2, -1 bsr 10]),
    io:format("~p~n", [1 bsl 64]),
    io:format("~p~n", [1 bsl 100 bsr 99]),
    io:format("~p~n", [5 bsl -1]),
    io:format("~p~n", [(1 bsl 70) bor 1]),
    io:format("~p~n", [(1 bsl 70 - 1) band 16#ffff]),
    io:format("~p~n", [bnot (1 bsl 65)]),
    io:format("~p~n", [-(1 bsl 65) bsr 60]),
    io:format("~p~n", [(1 bsl 80) bxor (1 bsl 80)]),
    io:format("~.2B~n", [2#1011 bxor 2#0110]),
    {16#FF band bnot 16#0F, 2#1010 bsl 2}.
