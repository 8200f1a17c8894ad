%% Checks: OTP's digraph: labelled vertices and edges, edge/2 info, del_edge, no_vertices/no_edges, add_edge errors for missing vertices.
-module(std_digraph_labels).
-export([main/0]).
main() ->
    G = digraph:new([private]),
    digraph:add_vertex(G, v1, "one"), digraph:add_vertex(G, v2, "two"),
    E = digraph:add_edge(G, v1, v2, weight5),
    io:format("~p~n", [digraph:vertex(G, v1)]),
    {E, From, To, Label} = digraph:edge(G, E),
    io:format("~p~n", [{From, To, Label}]),
    io:format("~p~n", [digraph:add_edge(G, v1, nowhere)]),
    io:format("~p ~p~n", [digraph:no_vertices(G), digraph:no_edges(G)]),
    true = digraph:del_edge(G, E),
    io:format("~p ~p~n", [digraph:no_edges(G), digraph:out_degree(G, v1)]),
    io:format("~p~n", [digraph:info(G) =/= []]),
    digraph:delete(G),
    ok.
