%% Checks: ~p breaks long terms at 80 columns, indents nested tuples/lists/maps; ~w never breaks; ~P depth limit.
-module(fmt_linebreak).
-export([main/0]).

main() ->
    L = lists:seq(1, 40),
    io:format("~p~n", [L]),
    io:format("~w~n", [L]),
    io:format("~p~n", [[{N, N * N} || N <- lists:seq(1, 12)]]),
    io:format("~p~n", [{config, [{name, "racewit_server"}, {port, 8080}, {options, [verbose, debug, {level, 3}]}]}]),
    io:format("~p~n", [#{alpha => 1, beta => "two", gamma => [3, 3, 3], delta => {4, 4, 4, 4}, epsilon => <<"five">>}]),
    io:format("prefix: ~p~n", [lists:seq(100, 130)]),
    io:format("~p~n", [[lists:duplicate(10, x), lists:duplicate(12, y), {deep, {deeper, {deepest, lists:seq(1, 25)}}}]]),
    io:format("~p~n", [list_to_binary(lists:seq(1, 60))]),
    io:format("~p~n", [lists:duplicate(30, "ab")]),
    io:format("~P~n", [[1, [2, [3, [4, [5]]]]], 4]),
    io:format("~P~n", [lists:seq(1, 20), 6]),
    io:format("~W~n", [{a, {b, {c, {d}}}}, 3]),
    io:format("~60p~n", [lists:seq(1, 30)]),
    {long_atom_name_number_one, long_atom_name_number_two, long_atom_name_number_three}.
