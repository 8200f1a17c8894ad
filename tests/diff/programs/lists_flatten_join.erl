%% Checks: OTP's lists: flatten/1,2, flatlength, join, enumerate (OTP 25), uniq, delete.
-module(lists_flatten_join).
-export([main/0]).
main() ->
    io:format("~p~n", [lists:flatten([1, [2, [3, [4]]], [], 5])]),
    io:format("~p~n", [lists:flatten([a, [b]], [c])]),
    io:format("~p~n", [lists:flatlength([1, [2, [3]], []])]),
    io:format("~p~n", [lists:join(", ", ["a", "b", "c"])]),
    io:format("~p~n", [lists:enumerate([a, b, c])]),
    io:format("~p~n", [lists:enumerate(10, [a, b])]),
    io:format("~p~n", [lists:uniq([3, 1, 3, 2, 1])]),
    io:format("~p~n", [lists:uniq(fun(X) -> X rem 3 end, [1, 2, 3, 4, 5, 6])]),
    io:format("~p~n", [lists:delete(b, [a, b, c, b])]),
    ok.
