%% Checks: parallel map with one process per element, results gathered by tag in order regardless of completion order.
-module(conc_pmap).
-export([main/0]).

pmap(F, L) ->
    Self = self(),
    Tagged = lists:zip(lists:seq(1, length(L)), L),
    [spawn(fun() -> Self ! {pmap, I, F(X)} end) || {I, X} <- Tagged],
    [receive {pmap, I, R} -> R end || {I, _} <- Tagged].

slow_square(X) ->
    timer:sleep((10 - X) * 3),
    X * X.

main() ->
    io:format("~p~n", [pmap(fun slow_square/1, lists:seq(1, 9))]),
    io:format("~p~n", [pmap(fun(X) -> {X, length(atom_to_list(X))} end, [a, bb, ccc])]),
    io:format("~p~n", [pmap(fun(X) -> X end, [])]),
    Arrival = fun() ->
                      Self = self(),
                      [spawn(fun() -> timer:sleep(D), Self ! {arrived, D} end) || D <- [150, 10, 70]],
                      [receive {arrived, D} -> D end || _ <- [1, 2, 3]]
              end,
    io:format("arrival order: ~p~n", [Arrival()]),
    lists:sum(pmap(fun(X) -> X * 2 end, lists:seq(1, 100))).
