%% Checks: comprehension edge cases: nested generators using outer vars, mixed binary/list generators, pattern generators, and filters that are guard expressions (an exception there just means false).
-module(list_comprehension_adv).
-export([main/0]).

main() ->
    io:format("~p~n", [[{X, Y} || X <- [1, 2, 3], Y <- lists:seq(X, 3)]]),
    io:format("~p~n", [[X || {X, true} <- [{a, true}, {b, false}, {c, true}, d]]]),
    io:format("~p~n", [[{B, L} || <<B>> <= <<1, 2>>, L <- [x, y]]]),
    io:format("~p~n", [[X || X <- [1, 2, 3, 4, 5, 6], X rem 2 =:= 0, X > 2]]),
    io:format("~p~n", [[length(L) || L <- [[], [a], [a, b]]]]),
    R = try [X || X <- [1, a, 2], X > 1 + X] catch error:E -> E end,
    io:format("~p~n", [R]),
    io:format("~p~n", [[X || X <- [1, a, 2], is_integer(X), X > 1]]),
    Matrix = [[1, 2, 3], [4, 5, 6]],
    Transpose = [[lists:nth(I, Row) || Row <- Matrix] || I <- lists:seq(1, 3)],
    io:format("~p~n", [Transpose]),
    io:format("~p~n", [[[C] || C <- "abc"]]),
    io:format("~p~n", [[X || [X | _] <- [[1, 2], [], [3]]]]),
    lists:sum([X * Y || X <- lists:seq(1, 10), Y <- lists:seq(1, 10), X =:= Y]).
