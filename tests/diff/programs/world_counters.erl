%% Checks: counters: new/add/sub/put/get/info, wrap-around at 64 bits, badarg on bad indexes and increments.
-module(world_counters).
-export([main/0]).
main() ->
    C = counters:new(3, []),
    ok = counters:add(C, 1, 5), ok = counters:sub(C, 2, 3), ok = counters:put(C, 3, 42),
    io:format("~p~n", [[counters:get(C, I) || I <- [1, 2, 3]]]),
    io:format("~p~n", [counters:info(C)]),
    ok = counters:put(C, 1, 9223372036854775807), ok = counters:add(C, 1, 1),
    io:format("~p~n", [counters:get(C, 1)]),
    F = fun(G) -> try G() catch error:E -> E end end,
    io:format("~p~n", [[F(fun() -> counters:get(C, 0) end), F(fun() -> counters:add(C, 4, 1) end),
                        F(fun() -> counters:add(C, 1, 1.5) end), F(fun() -> counters:new(0, []) end)]]),
    W = counters:new(1, [write_concurrency]),
    ok = counters:add(W, 1, 2),
    io:format("~p~n", [counters:get(W, 1)]),
    ok.
