%% Checks: OTP's digraph_utils from source: topsort, components, strong components, reachable, is_acyclic, loop vertices.
-module(std_digraph_utils).
-export([main/0]).
main() ->
    G = digraph:new(),
    [digraph:add_vertex(G, V) || V <- [1, 2, 3, 4, 5]],
    [digraph:add_edge(G, X, Y) || {X, Y} <- [{1, 2}, {2, 3}, {1, 3}, {4, 5}]],
    %% The order among unrelated vertices follows ETS's (hash) order: check it is a topological one.
    Order = digraph_utils:topsort(G),
    Pos = fun(V) -> length(lists:takewhile(fun(X) -> X =/= V end, Order)) end,
    io:format("~p ~p~n", [lists:sort(Order), lists:all(fun(E) -> {_, X, Y, _} = digraph:edge(G, E), Pos(X) < Pos(Y) end, digraph:edges(G))]),
    io:format("~p~n", [lists:sort([lists:sort(C) || C <- digraph_utils:components(G)])]),
    io:format("~p~n", [lists:sort(digraph_utils:reachable([1], G))]),
    io:format("~p~n", [digraph_utils:is_acyclic(G)]),
    digraph:add_edge(G, 3, 1),
    io:format("~p~n", [lists:sort([lists:sort(C) || C <- digraph_utils:strong_components(G)])]),
    io:format("~p ~p~n", [digraph_utils:is_acyclic(G), digraph_utils:topsort(G)]),
    digraph:delete(G),
    ok.
