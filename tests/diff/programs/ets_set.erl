%% Checks: ets set: insert (overwrite), insert list, lookup, member, delete/2, insert_new, tab2list (sorted), info size/type.
-module(ets_set).
-export([main/0]).

main() ->
    T = ets:new(things, [set]),
    io:format("~p~n", [ets:insert(T, {a, 1})]),
    ets:insert(T, {a, 2}),
    ets:insert(T, [{b, 3}, {c, 4, extra}]),
    io:format("~p~n", [ets:lookup(T, a)]),
    io:format("~p~n", [ets:lookup(T, nope)]),
    io:format("~p ~p~n", [ets:member(T, b), ets:member(T, z)]),
    io:format("~p~n", [ets:insert_new(T, {a, 99})]),
    io:format("~p~n", [ets:insert_new(T, {d, 5})]),
    io:format("~p~n", [ets:insert_new(T, [{e, 1}, {a, 0}])]),
    io:format("~p~n", [lists:sort(ets:tab2list(T))]),
    io:format("~p~n", [ets:delete(T, b)]),
    io:format("~p~n", [ets:delete(T, not_there)]),
    io:format("~p ~p~n", [ets:info(T, size), ets:info(T, type)]),
    io:format("~p~n", [ets:lookup(T, 1.0) =:= [] andalso ets:insert(T, {1, int}) andalso ets:lookup(T, 1.0)]),
    io:format("~p~n", [ets:delete(T)]),
    io:format("~p~n", [ets:info(T)]),
    E = try ets:lookup(T, a) catch error:R -> R end,
    E.
