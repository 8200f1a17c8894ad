%% Checks: ETS badarg cases: insert a non-tuple, tuple shorter than keypos, lookup on a deleted table, bad options, update_counter on non-integer, bad match spec.
-module(ets_errors).
-export([main/0]).

try_it(F) -> try F() catch error:R -> {error, R} end.

main() ->
    T = ets:new(t, [set, {keypos, 2}]),
    io:format("~p~n", [try_it(fun() -> ets:insert(T, not_a_tuple) end)]),
    io:format("~p~n", [try_it(fun() -> ets:insert(T, {only_one}) end)]),
    io:format("~p~n", [try_it(fun() -> ets:insert(T, {a, b}) end)]),
    io:format("~p~n", [try_it(fun() -> ets:insert(T, [{x, y}, bad]) end)]),
    io:format("~p~n", [lists:sort(ets:tab2list(T))]),
    io:format("~p~n", [try_it(fun() -> ets:info(ets:new(x, [set, bag]), type) end)]),
    io:format("~p~n", [try_it(fun() -> ets:new(x, [{keypos, 0}]) end)]),
    io:format("~p~n", [try_it(fun() -> ets:new("name", []) end)]),
    io:format("~p~n", [try_it(fun() -> ets:update_counter(T, b, 1) end)]),
    io:format("~p~n", [try_it(fun() -> ets:select(T, [{bad}]) end)]),
    io:format("~p~n", [try_it(fun() -> ets:lookup(no_such_named_table, k) end)]),
    ets:delete(T),
    io:format("~p~n", [try_it(fun() -> ets:insert(T, {a, b}) end)]),
    io:format("~p~n", [try_it(fun() -> ets:delete(T) end)]),
    try_it(fun() -> ets:first(T) end).
