%% Checks: OTP's maps from source: fold, filter, filtermap, map, foreach, iterator/next in key order for small maps.
-module(maps_fold_filter_iter).
-export([main/0]).
main() ->
    M = #{a => 1, b => 2, c => 3, d => 4},
    io:format("~p~n", [maps:fold(fun(K, V, A) -> [{K, V} | A] end, [], M)]),
    io:format("~p~n", [maps:filter(fun(_, V) -> V rem 2 =:= 0 end, M)]),
    io:format("~p~n", [maps:filtermap(fun(a, _) -> false; (_, V) when V > 2 -> {true, V * 10}; (_, _) -> true end, M)]),
    io:format("~p~n", [maps:map(fun(K, V) -> {K, V} end, #{x => 1})]),
    maps:foreach(fun(K, V) -> io:format("~p=~p~n", [K, V]) end, #{p => 1, q => 2}),
    I = maps:iterator(M),
    {K1, V1, I2} = maps:next(I),
    {K2, V2, _} = maps:next(I2),
    io:format("~p~n", [[{K1, V1}, {K2, V2}]]),
    io:format("~p~n", [maps:next(maps:iterator(#{}))]),
    ok.
