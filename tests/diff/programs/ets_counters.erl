%% Checks: update_counter with Incr, {Pos,Incr}, {Pos,Incr,Threshold,SetValue}, lists of ops, default object; update_element; badarg cases.
-module(ets_counters).
-export([main/0]).

main() ->
    T = ets:new(c, [set]),
    ets:insert(T, {hits, 0, 100}),
    io:format("~p~n", [ets:update_counter(T, hits, 1)]),
    io:format("~p~n", [ets:update_counter(T, hits, 5)]),
    io:format("~p~n", [ets:update_counter(T, hits, {3, -10})]),
    io:format("~p~n", [ets:update_counter(T, hits, [{2, 1}, {3, 1}])]),
    io:format("~p~n", [ets:lookup(T, hits)]),
    ets:insert(T, {wrap, 8}),
    io:format("~p~n", [[ets:update_counter(T, wrap, {2, 1, 10, 0}) || _ <- lists:seq(1, 5)]]),
    ets:insert(T, {down, 3}),
    io:format("~p~n", [[ets:update_counter(T, down, {2, -1, 1, 5}) || _ <- lists:seq(1, 4)]]),
    io:format("~p~n", [ets:update_counter(T, fresh, 7, {fresh, 100})]),
    io:format("~p~n", [ets:update_element(T, hits, {3, replaced})]),
    io:format("~p~n", [ets:update_element(T, hits, [{2, a}, {3, b}])]),
    io:format("~p~n", [ets:update_element(T, nobody, {2, x})]),
    io:format("~p~n", [ets:lookup(T, hits)]),
    Errs = [try F() catch error:R -> R end
            || F <- [fun() -> ets:update_counter(T, missing, 1) end,
                     fun() -> ets:update_counter(T, hits, 1) end,
                     fun() -> ets:update_counter(T, wrap, {1, 1}) end,
                     fun() -> ets:update_element(T, hits, {1, newkey}) end,
                     fun() -> ets:update_counter(T, wrap, {5, 1}) end]],
    io:format("~p~n", [Errs]),
    lists:sort(ets:tab2list(T)).
