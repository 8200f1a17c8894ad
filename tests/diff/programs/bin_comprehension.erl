%% Checks: binary comprehensions, bitstring generators, list comprehensions over binaries, filters.
-module(bin_comprehension).
-export([main/0]).

main() ->
    io:format("~w~n", [<< <<(X * 2)>> || <<X>> <= <<1, 2, 3>> >>]),
    io:format("~w~n", [[X || <<X:4>> <= <<16#12, 16#34>>]]),
    io:format("~w~n", [<< <<X:4>> || X <- [1, 2, 3, 4, 5]>>]),
    io:format("~w~n", [<< <<B:1>> || B <- [1, 0, 1] >>]),
    io:format("~p~n", [<< <<C>> || <<C>> <= <<"Hello World">>, C =/= $o >>]),
    io:format("~p~n", [[{K, V} || <<K:8, V:8>> <= <<1, 10, 2, 20, 3>>]]),
    Upper = << <<(if C >= $a, C =< $z -> C - 32; true -> C end)>> || <<C>> <= <<"mixed Case!">> >>,
    io:format("~p~n", [Upper]),
    io:format("~w~n", [<< <<X:16/little>> || X <- [1, 256] >>]),
    io:format("~w~n", [[B || <<B:3>> <= <<255, 1:2>>]]),
    Pairs = << <<X, Y>> || X <- [1, 2], Y <- [8, 9] >>,
    io:format("~w~n", [Pairs]),
    byte_size(<< <<0:8>> || _ <- lists:seq(1, 100) >>).
