%% Checks: list comprehensions with multiple generators, filters, pattern generators skipping non-matches, nested comprehensions.
-module(list_comprehension).
-export([main/0]).

pyth(N) ->
    [{A, B, C} || A <- lists:seq(1, N), B <- lists:seq(A, N), C <- lists:seq(B, N),
                  A * A + B * B =:= C * C].

qsort([]) -> [];
qsort([P | Rest]) -> qsort([X || X <- Rest, X < P]) ++ [P] ++ qsort([X || X <- Rest, X >= P]).

perms([]) -> [[]];
perms(L) -> [[H | T] || H <- L, T <- perms(L -- [H])].

main() ->
    io:format("~p~n", [[X * 2 || X <- [1, 2, 3]]]),
    io:format("~p~n", [[{X, Y} || X <- [1, 2], Y <- [a, b]]]),
    io:format("~p~n", [[X || {ok, X} <- [{ok, 1}, error, {ok, 2}, {error, 3}]]]),
    io:format("~p~n", [pyth(20)]),
    io:format("~p~n", [qsort([3, 1, 4, 1, 5, 9, 2, 6, 5, 3, 5])]),
    io:format("~p~n", [perms([1, 2, 3])]),
    io:format("~p~n", [[[Y || Y <- lists:seq(1, X)] || X <- [1, 2, 3]]]),
    io:format("~p~n", [[X || X <- "hello", X > $g]]),
    io:format("~p~n", [[X || X <- [1, 2, 3], false]]),
    io:format("~p~n", [[{I, C} || {I, C} <- lists:zip(lists:seq(1, 3), "abc"), I =/= 2]]),
    Y = 2,
    io:format("~p~n", [[X || X <- [1, 2, 3], X =/= Y]]),
    length([ok || _ <- lists:seq(1, 1000)]).
