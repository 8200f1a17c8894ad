%% Checks: OTP's lists: seq with steps (and its badarg cases), duplicate, reverse/2, append/1, concat, subtract.
-module(lists_seq_dup).
-export([main/0]).
main() ->
    io:format("~p ~p ~p~n", [lists:seq(1, 10, 3), lists:seq(10, 1, -4), lists:seq(5, 4)]),
    R = try lists:seq(1, 10, 0) catch error:E -> E end,
    io:format("~p~n", [R]),
    io:format("~p~n", [lists:duplicate(3, ab)]),
    io:format("~p~n", [lists:reverse([1, 2], [3, 4])]),
    io:format("~p ~p~n", [lists:append([[1], [2, 3], []]), lists:concat([a, "b", 1, 2.5])]),
    io:format("~p~n", [lists:subtract([a, b, a, c], [a, c])]),
    io:format("~p ~p~n", [lists:sum([1, 2, 3.5]), lists:max([3, a, "s"])]),
    ok.
