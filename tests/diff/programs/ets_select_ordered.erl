%% Checks: select with limit and continuation on ordered_set (order specified), select_reverse, match with limit, ets:next/prev after deletes.
-module(ets_select_ordered).
-export([main/0]).

main() ->
    T = ets:new(o, [ordered_set]),
    ets:insert(T, [{N, N rem 3} || N <- lists:seq(1, 20)]),
    MS = [{{'$1', 0}, [], ['$1']}],
    io:format("~p~n", [ets:select(T, MS)]),
    {First, Cont} = ets:select(T, MS, 2),
    io:format("~p~n", [First]),
    {Second, Cont2} = ets:select(Cont),
    io:format("~p~n", [Second]),
    {Third, _} = ets:select(Cont2),
    io:format("~p~n", [Third]),
    io:format("~p~n", [ets:select_reverse(T, MS)]),
    io:format("~p~n", [ets:select(T, [{{'$1', 1}, [{'>', '$1', 15}], ['$1']}], 100)]),
    io:format("~p~n", [ets:select(T, [{{'$1', 7}, [], ['$1']}], 5)]),
    ets:delete(T, 10),
    io:format("~p ~p~n", [ets:next(T, 9), ets:prev(T, 11)]),
    io:format("~p~n", [element(1, ets:match(T, {'$1', 2}, 3))]),
    io:format("~p~n", [ets:match_object(T, {'_', 0}) =:= ets:select(T, [{{'_', 0}, [], ['$_']}])]),
    ets:select_count(T, [{{'_', '$1'}, [{'=/=', '$1', 0}], [true]}]).
