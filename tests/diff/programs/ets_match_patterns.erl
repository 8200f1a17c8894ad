%% Checks: ets:match / match_object with nested tuple patterns, repeated variables '$1' ... '$1', constants inside keys, lists in objects.
-module(ets_match_patterns).
-export([main/0]).

main() ->
    T = ets:new(m, [bag]),
    ets:insert(T, [{edge, a, b}, {edge, b, c}, {edge, c, c}, {edge, d, d},
                   {node, {pos, 1, 2}, [red]}, {node, {pos, 3, 3}, [blue, red]},
                   {node, {pos, 5, 6}, []}]),
    io:format("~p~n", [lists:sort(ets:match(T, {edge, '$1', '$1'}))]),
    io:format("~p~n", [lists:sort(ets:match(T, {edge, a, '$1'}))]),
    io:format("~p~n", [lists:sort(ets:match(T, {node, {pos, '$1', '$1'}, '_'}))]),
    io:format("~p~n", [lists:sort(ets:match(T, {node, {pos, '$1', '_'}, ['$2' | '_']}))]),
    io:format("~p~n", [lists:sort(ets:match_object(T, {node, '_', []}))]),
    io:format("~p~n", [lists:sort(ets:match(T, {'$1', '_', '_'}))]),
    io:format("~p~n", [lists:sort(ets:match(T, '$1')) =:= lists:sort([[O] || O <- ets:tab2list(T)])]),
    io:format("~p~n", [ets:match(T, {edge, '$1', '$2', '$3'})]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{edge, '$1', '$2'}, [{'=/=', '$1', '$2'}], [{{'$2', '$1'}}]}]))]),
    length(ets:match_object(T, {node, '_', '_'})).
