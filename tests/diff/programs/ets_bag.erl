%% Checks: bag vs duplicate_bag: duplicates of whole objects, lookup returns all objects for a key, delete_object, delete key.
-module(ets_bag).
-export([main/0]).

main() ->
    B = ets:new(b, [bag]),
    D = ets:new(d, [duplicate_bag]),
    Objs = [{k, 1}, {k, 2}, {k, 1}, {j, 1}],
    ets:insert(B, Objs),
    ets:insert(D, Objs),
    io:format("bag k: ~p~n", [lists:sort(ets:lookup(B, k))]),
    io:format("dup k: ~p~n", [lists:sort(ets:lookup(D, k))]),
    io:format("sizes: ~p ~p~n", [ets:info(B, size), ets:info(D, size)]),
    ets:delete_object(B, {k, 1}),
    ets:delete_object(D, {k, 1}),
    io:format("bag k: ~p~n", [lists:sort(ets:lookup(B, k))]),
    io:format("dup k: ~p~n", [lists:sort(ets:lookup(D, k))]),
    ets:delete(D, k),
    io:format("dup all: ~p~n", [lists:sort(ets:tab2list(D))]),
    io:format("insert_new on bag: ~p ~p~n", [ets:insert_new(B, {k, 9}), ets:insert_new(B, {m, 9})]),
    io:format("~p~n", [lists:sort(ets:tab2list(B))]),
    io:format("~p~n", [ets:info(B, type)]),
    io:format("~p~n", [lists:sort(ets:lookup_element(B, k, 2))]),
    ets:member(B, j).
