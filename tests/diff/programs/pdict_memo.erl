%% Checks: process dictionary used as a memo table for fib; erase of a prefix of keys; dictionary is not shared with spawned processes.
-module(pdict_memo).
-export([main/0]).

fib(N) when N < 2 -> N;
fib(N) ->
    case get({fib, N}) of
        undefined -> V = fib(N - 1) + fib(N - 2), put({fib, N}, V), V;
        V -> V
    end.

main() ->
    io:format("~p~n", [fib(90)]),
    Keys = [K || {fib, _} = K <- get_keys()],
    io:format("memo entries: ~p~n", [length(Keys)]),
    [erase(K) || {fib, N} = K <- Keys, N > 50],
    io:format("after erase: ~p~n", [length(get_keys())]),
    io:format("~p~n", [get({fib, 50})]),
    io:format("~p~n", [get({fib, 51})]),
    Self = self(),
    spawn(fun() -> Self ! {child, length(get())} end),
    io:format("~p~n", [receive {child, N} -> N end]),
    io:format("~p~n", [fib(100)]),
    length(erase()).
