%% Checks: length, hd, tl, ++, --, and their errors on improper input.
-module(bif_lists).
-export([main/0]).

main() ->
    L = [1, 2, 3, 2, 1],
    io:format("~p ~p ~p~n", [length(L), hd(L), tl(L)]),
    io:format("~p~n", [L ++ [4, 5]]),
    io:format("~p~n", [L -- [2, 1]]),
    io:format("~p~n", [[1, 2] ++ improper]),
    io:format("~p~n", [[a | [b | [c | []]]]]),
    io:format("~p~n", ["abc" -- "b"]),
    io:format("~p~n", [[] ++ []]),
    io:format("~p~n", [[[1], [2]] -- [[2]]]),
    Nil = list_to_atom("nil"),
    Errs = [try F() catch error:R -> R end
            || F <- [fun() -> hd([]) end,
                     fun() -> tl([]) end,
                     fun() -> length([1 | 2]) end,
                     fun() -> length(Nil) end,
                     fun() -> Nil ++ [1] end,
                     fun() -> [1] -- Nil end]],
    io:format("~p~n", [Errs]),
    {hd("x"), tl("xy"), length("")}.
