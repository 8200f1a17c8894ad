%% Checks: ets:match with '$1' and '_', match_object, select with guards and '$_'/'$$', select_count, select_delete, fun2ms-free match specs.
-module(ets_match_select).
-export([main/0]).

main() ->
    T = ets:new(people, [set]),
    ets:insert(T, [{alice, 30, london}, {bob, 25, paris}, {carol, 35, london},
                   {dave, 40, berlin}, {eve, 22, paris}]),
    io:format("~p~n", [lists:sort(ets:match(T, {'$1', '_', london}))]),
    io:format("~p~n", [lists:sort(ets:match(T, {'$2', '$1', paris}))]),
    io:format("~p~n", [lists:sort(ets:match_object(T, {'_', '_', berlin}))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '$2', '_'}, [{'>', '$2', 28}], ['$1']}]))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '$2', '$3'}, [{'<', '$2', 26}], ['$$']}]))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'_', '$1', london}, [], ['$_']}]))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '$2', '_'}, [{'andalso', {'>=', '$2', 25}, {'=<', '$2', 35}}], [{{'$1', {'+', '$2', 1}}}]}]))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '_', paris}, [], ['$1']}, {{'$1', '_', berlin}, [], [{{city, '$1'}}]}]))]),
    io:format("~p~n", [ets:select_count(T, [{{'_', '$1', '_'}, [{'>', '$1', 24}], [true]}])]),
    io:format("~p~n", [ets:select_delete(T, [{{'_', '_', paris}, [], [true]}])]),
    io:format("~p~n", [lists:sort(ets:tab2list(T))]),
    io:format("~p~n", [ets:match(T, {nobody, '$1', '_'})]),
    ets:match_delete(T, {'_', '_', london}),
    io:format("~p~n", [ets:tab2list(T)]),
    O = ets:new(o, [ordered_set]),
    ets:insert(O, [{N, N * N} || N <- lists:seq(1, 10)]),
    io:format("~p~n", [ets:select(O, [{{'$1', '$2'}, [{'==', {'rem', '$1', 3}, 0}], ['$2']}])]),
    ets:select(O, [{{'$1', '_'}, [{is_integer, '$1'}, {'<', '$1', 4}], ['$1']}]).
