%% Checks: sets, ordsets, gb_sets, dict, orddict, gb_trees: insertion, membership, union/intersection/subtract, to_list (sorted where unordered).
-module(std_sets_dicts).
-export([main/0]).

main() ->
    S1 = sets:from_list([3, 1, 2, 3]),
    S2 = sets:from_list([2, 3, 4]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:union(S1, S2)))]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:intersection(S1, S2)))]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:subtract(S1, S2)))]),
    io:format("~p ~p~n", [sets:size(S1), sets:is_element(1, S1)]),
    O = ordsets:from_list([c, a, b, a]),
    io:format("~p~n", [O]),
    io:format("~p~n", [ordsets:add_element(aa, O)]),
    io:format("~p~n", [ordsets:union(O, [a, d])]),
    io:format("~p~n", [ordsets:is_subset([a, b], O)]),
    G = gb_sets:from_list([5, 1, 9, 3]),
    io:format("~p ~p ~p~n", [gb_sets:to_list(G), gb_sets:smallest(G), gb_sets:largest(G)]),
    D = dict:from_list([{k1, 1}, {k2, 2}]),
    D2 = dict:append(k3, x, dict:update_counter(k1, 10, D)),
    io:format("~p~n", [lists:sort(dict:to_list(D2))]),
    io:format("~p ~p~n", [dict:find(k2, D2), dict:find(zz, D2)]),
    OD = orddict:store(b, 2, orddict:store(a, 1, orddict:new())),
    io:format("~p~n", [orddict:append(c, 3, OD)]),
    io:format("~p~n", [orddict:fetch(a, OD)]),
    T = lists:foldl(fun({K, V}, Acc) -> gb_trees:insert(K, V, Acc) end, gb_trees:empty(), [{3, c}, {1, a}, {2, b}]),
    io:format("~p~n", [gb_trees:to_list(T)]),
    io:format("~p ~p~n", [gb_trees:lookup(2, T), gb_trees:lookup(9, T)]),
    io:format("~p~n", [gb_trees:smallest(T)]),
    io:format("~p~n", [gb_trees:keys(gb_trees:delete(1, T))]),
    gb_trees:size(T).
