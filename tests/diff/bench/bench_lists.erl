%% Bench: a lists:map / lists:filter / lists:foldl pipeline over 1,000,000 integers.
-module(bench_lists).
-export([main/0]).

main() ->
    L = lists:seq(1, 1000000),
    Squares = lists:map(fun(X) -> X * X rem 1000 end, L),
    Odd = lists:filter(fun(X) -> X rem 2 =:= 1 end, Squares),
    Sum = lists:foldl(fun(X, Acc) -> X + Acc end, 0, Odd),
    io:format("odd: ~p~n", [length(Odd)]),
    {Sum, lists:foldl(fun erlang:max/2, 0, Squares)}.
