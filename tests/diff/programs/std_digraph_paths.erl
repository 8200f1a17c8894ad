%% Checks: OTP's digraph (on ETS) from source: vertices/edges, paths, cycles, acyclic option, in/out neighbours, deletion.
-module(std_digraph_paths).
-export([main/0]).
main() ->
    G = digraph:new(),
    [digraph:add_vertex(G, V) || V <- [a, b, c, d]],
    digraph:add_edge(G, a, b), digraph:add_edge(G, b, c), digraph:add_edge(G, c, a), digraph:add_edge(G, c, d),
    io:format("~p ~p~n", [lists:sort(digraph:vertices(G)), length(digraph:edges(G))]),
    io:format("~p~n", [digraph:get_path(G, a, d)]),
    io:format("~p~n", [digraph:get_short_path(G, b, d)]),
    io:format("~p~n", [digraph:get_cycle(G, a)]),
    io:format("~p ~p~n", [lists:sort(digraph:out_neighbours(G, c)), digraph:in_degree(G, a)]),
    digraph:del_vertex(G, c),
    io:format("~p~n", [digraph:get_path(G, a, d)]),
    A = digraph:new([acyclic]),
    digraph:add_vertex(A, x), digraph:add_vertex(A, y), digraph:add_edge(A, x, y),
    io:format("~p~n", [digraph:add_edge(A, y, x)]),
    digraph:delete(G), digraph:delete(A),
    ok.
