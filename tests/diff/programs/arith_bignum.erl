%% Checks: bignum arithmetic across the small/big boundary, factorial, powers, div/rem on bignums.
-module(arith_bignum).
-export([main/0]).

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

pow(_, 0) -> 1;
pow(B, E) -> B * pow(B, E - 1).

main() ->
    io:format("~p~n", [fact(30)]),
    io:format("~p~n", [fact(25) div fact(23)]),
    Big = pow(2, 100),
    io:format("~p~n", [Big]),
    io:format("~p~n", [Big - 1]),
    io:format("~p~n", [-Big]),
    io:format("~p ~p~n", [Big div 3, Big rem 3]),
    io:format("~p ~p~n", [(-Big) div 7, (-Big) rem 7]),
    io:format("~p~n", [pow(2, 59) + pow(2, 59)]),
    io:format("~p~n", [pow(2, 60) * pow(2, 60) - pow(2, 120)]),
    io:format("~p~n", [576460752303423487 + 1]),
    io:format("~p~n", [pow(10, 30) * pow(10, 30)]),
    io:format("~p~n", [pow(3, 40) - pow(3, 39)]),
    io:format("~p~n", [Big > pow(2, 99)]),
    io:format("~p~n", [Big == pow(2, 100)]),
    io:format("~p~n", [abs(-pow(7, 30))]),
    {is_integer(Big), Big band 16#ff, Big bsr 98}.
