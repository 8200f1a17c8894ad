%% Checks: map comprehensions via maps:from_list and list comprehensions over maps:to_list, maps:groups_from_list-like grouping by fold.
-module(map_comprehension).
-export([main/0]).

group(Words) ->
    lists:foldl(fun(W, Acc) ->
                        K = length(W),
                        maps:update_with(K, fun(L) -> [W | L] end, [W], Acc)
                end, #{}, Words).

main() ->
    Sq = maps:from_list([{X, X * X} || X <- lists:seq(1, 6)]),
    io:format("~p~n", [Sq]),
    Even = [{K, V} || {K, V} <- lists:sort(maps:to_list(Sq)), V rem 2 =:= 0],
    io:format("~p~n", [Even]),
    G = group(["a", "bb", "cc", "d", "eee"]),
    io:format("~p~n", [G]),
    Inverted = maps:from_list([{V, K} || {K, V} <- maps:to_list(#{a => 1, b => 2})]),
    io:format("~p~n", [Inverted]),
    Counts = lists:foldl(fun(C, Acc) -> maps:update_with(C, fun(N) -> N + 1 end, 1, Acc) end,
                         #{}, "mississippi"),
    io:format("~p~n", [Counts]),
    Iter = maps:iterator(#{x => 1}),
    {K1, V1, _} = maps:next(Iter),
    io:format("~p~n", [{K1, V1}]),
    maps:keys(maps:filter(fun(_, V) -> V > 1 end, Counts)).
