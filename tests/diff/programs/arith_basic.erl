%% Checks: integer + - *, div and rem with every sign combination, unary minus, precedence.
-module(arith_basic).
-export([main/0]).

main() ->
    io:format("~p ~p ~p~n", [1 + 2, 7 - 10, 6 * -7]),
    Pairs = [{7, 2}, {-7, 2}, {7, -2}, {-7, -2}, {0, 5}, {5, 7}],
    lists:foreach(fun({A, B}) ->
                          io:format("~p div ~p = ~p, ~p rem ~p = ~p~n",
                                    [A, B, A div B, A, B, A rem B])
                  end, Pairs),
    io:format("~p~n", [2 + 3 * 4 - 10 div 3]),
    io:format("~p~n", [-(-5)]),
    io:format("~p~n", [+(-5)]),
    X = 17,
    io:format("~w ~w~n", [X * X * X, -X div 4]),
    {X div 5, X rem 5, -X rem 5}.
