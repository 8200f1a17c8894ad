%% Checks: the global term order: number < atom < reference < fun < port < pid < tuple < map < nil < list < bitstring.
-module(term_order).
-export([main/0]).

main() ->
    Terms = [<<"b">>, [a], [], #{}, {1, 2}, {}, abc, 42, 3.5, <<1:3>>, "abc",
             {0, 0, 0}, #{a => 1}, -1, zzz, <<>>, [1 | 2], 1.0, 1],
    Sorted = lists:sort(Terms),
    io:format("~p~n", [Sorted]),
    io:format("~p~n", [1 < a]),
    io:format("~p~n", [a < {}]),
    io:format("~p~n", [{1, 2} < {0, 0, 0}]),
    io:format("~p~n", [{2} < {1, 1}]),
    io:format("~p~n", [[] < [0]]),
    io:format("~p~n", [#{} < []]),
    io:format("~p~n", [#{a => 1} < #{b => 0}]),
    io:format("~p~n", [#{z => 1} < #{a => 1, b => 2}]),
    io:format("~p~n", [[1, 2] < [1, 2, 0]]),
    io:format("~p~n", [<<1>> < <<1, 0>>]),
    io:format("~p~n", [aa < ab]),
    io:format("~p~n", [lists:sort([1.0, 1, 0.5, 2])]),
    io:format("~p~n", [lists:usort([1.0, 1, 2, 2.0])]),
    {max(a, 1), min("a", <<"a">>)}.
