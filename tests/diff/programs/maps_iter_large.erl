%% Checks: maps:fold/filter/map over a map of 20 keys (term order below 33 keys), maps:to_list vs iterator walk.
-module(maps_iter_large).
-export([main/0]).
main() ->
    M = maps:from_list([{K, K * K} || K <- lists:seq(20, 1, -1)]),
    io:format("~p~n", [maps:fold(fun(K, _, A) -> [K | A] end, [], M)]),
    Walk = fun W(I, Acc) -> case maps:next(I) of none -> lists:reverse(Acc); {K, _, I2} -> W(I2, [K | Acc]) end end,
    io:format("~p~n", [Walk(maps:iterator(M), []) =:= maps:keys(M)]),
    io:format("~p~n", [maps:size(maps:filter(fun(K, _) -> K rem 3 =:= 0 end, M))]),
    io:format("~p~n", [maps:get(7, maps:map(fun(_, V) -> V + 1 end, M))]),
    io:format("~p~n", [lists:sum(maps:values(M))]),
    ok.
