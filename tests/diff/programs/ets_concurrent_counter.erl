%% Checks: many processes bump a public ETS counter with atomic update_counter; final total is deterministic.
-module(ets_concurrent_counter).
-export([main/0]).

main() ->
    T = ets:new(counter, [public, set]),
    ets:insert(T, {n, 0}),
    Self = self(),
    Workers = 10,
    Per = 500,
    [spawn(fun() ->
                   [ets:update_counter(T, n, 1) || _ <- lists:seq(1, Per)],
                   ets:insert(T, {{done, W}, true}),
                   Self ! done
           end) || W <- lists:seq(1, Workers)],
    [receive done -> ok end || _ <- lists:seq(1, Workers)],
    io:format("counter: ~p~n", [ets:lookup_element(T, n, 2)]),
    io:format("done markers: ~p~n", [length(ets:match(T, {{done, '_'}, true}))]),
    io:format("size: ~p~n", [ets:info(T, size)]),
    Keys = lists:sort([K || {K, _} <- ets:tab2list(T)]),
    io:format("~p~n", [Keys]),
    ets:lookup(T, n).
