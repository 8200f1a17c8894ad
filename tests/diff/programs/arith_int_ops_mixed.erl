%% Checks: integer functions: gcd by recursion, integer power by squaring with bignums, modular exponentiation, sum of digits of 2^1000.
-module(arith_int_ops_mixed).
-export([main/0]).

gcd(A, 0) -> abs(A);
gcd(A, B) -> gcd(B, A rem B).

pow(_, 0) -> 1;
pow(B, E) when E rem 2 =:= 0 -> H = pow(B, E div 2), H * H;
pow(B, E) -> B * pow(B, E - 1).

powmod(_, 0, _) -> 1;
powmod(B, E, M) when E rem 2 =:= 0 -> H = powmod(B, E div 2, M), (H * H) rem M;
powmod(B, E, M) -> (B * powmod(B, E - 1, M)) rem M.

digits(0) -> [];
digits(N) -> [N rem 10 | digits(N div 10)].

main() ->
    io:format("~p~n", [[gcd(48, 18), gcd(-48, 18), gcd(17, 5), gcd(0, 9)]]),
    io:format("~p~n", [pow(3, 100)]),
    io:format("~p~n", [powmod(2, 1000, 1000000007)]),
    io:format("~p~n", [lists:sum(digits(pow(2, 1000)))]),
    io:format("~p~n", [length(integer_to_list(pow(7, 500)))]),
    io:format("~p~n", [pow(-2, 63)]),
    io:format("~p~n", [pow(-2, 63) - 1]),
    io:format("~p~n", [pow(2, 64) div pow(2, 32)]),
    io:format("~p~n", [pow(10, 40) rem 997]),
    io:format("~p~n", [(pow(2, 127) - 1) rem 1000]),
    io:format("~p~n", [-pow(10, 20) div 3]),
    io:format("~p~n", [-pow(10, 20) rem 3]),
    io:format("~p~n", [pow(12345678901, 3) div pow(12345678901, 2)]),
    gcd(pow(2, 100) * 3, pow(2, 90) * 9).
