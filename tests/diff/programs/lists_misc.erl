%% Checks: lists:join, intersperse, droplast, enumerate, uniq, search, foreach order, splitwith, sublist edge cases, max/min on tuples, foldl with tuple accumulator.
-module(lists_misc).
-export([main/0]).

main() ->
    io:format("~p~n", [lists:join(", ", ["a", "b", "c"])]),
    io:format("~s~n", [lists:join(", ", ["a", "b", "c"])]),
    io:format("~p~n", [lists:join(x, [])]),
    io:format("~p~n", [lists:droplast([1, 2, 3])]),
    io:format("~p~n", [lists:enumerate([a, b, c])]),
    io:format("~p~n", [lists:uniq([3, 1, 3, 2, 1])]),
    io:format("~p~n", [lists:search(fun(X) -> X > 2 end, [1, 2, 3, 4])]),
    io:format("~p~n", [lists:search(fun(X) -> X > 9 end, [1, 2])]),
    {Evens, Odds, Sum} = lists:foldl(fun(X, {E, O, S}) when X rem 2 =:= 0 -> {[X | E], O, S + X};
                                        (X, {E, O, S}) -> {E, [X | O], S + X} end,
                                     {[], [], 0}, lists:seq(1, 9)),
    io:format("~p ~p ~p~n", [Evens, Odds, Sum]),
    io:format("~p~n", [lists:max([{1, b}, {2, a}, {1, z}])]),
    io:format("~p~n", [lists:sublist([1, 2], 0)]),
    io:format("~p~n", [lists:sublist([], 3)]),
    io:format("~p~n", [lists:flatlength([1, [2, [3]], []])]),
    io:format("~p~n", [lists:subtract("hello", "lo")]),
    io:format("~p~n", [lists:all(fun is_atom/1, [a, b])]),
    Words = string:lexemes("the quick brown fox jumps over the lazy dog", " "),
    Freq = lists:foldl(fun(W, Acc) -> orddict:update_counter(W, 1, Acc) end, orddict:new(), Words),
    io:format("~p~n", [Freq]),
    lists:reverse(lists:seq(1, 5)) -- [2, 4].
