%% Checks: a 100k-element pipeline of seq/map/filter/foldl/sort/usort/zip/sum, exercising list BIFs on long lists.
-module(lists_pipeline).
-export([main/0]).

main() ->
    L = lists:seq(1, 100000),
    M = lists:map(fun(X) -> (X * 7919) rem 10007 end, L),
    io:format("~p~n", [lists:sum(M)]),
    F = lists:filter(fun(X) -> X rem 3 =:= 0 end, M),
    io:format("~p~n", [length(F)]),
    S = lists:sort(M),
    io:format("~p ~p~n", [hd(S), lists:last(S)]),
    U = lists:usort(M),
    io:format("~p~n", [length(U)]),
    Z = lists:zip(L, M),
    io:format("~p~n", [lists:foldl(fun({A, B}, Acc) -> Acc + A * B rem 13 end, 0, Z)]),
    io:format("~p~n", [length(lists:reverse(L) ++ L)]),
    io:format("~p~n", [lists:nth(50000, M)]),
    io:format("~p~n", [lists:max(M) + lists:min(M)]),
    {Front, Back} = lists:split(50000, M),
    io:format("~p~n", [lists:sum(Front) - lists:sum(Back)]),
    length(lists:flatten([[X, [X]] || X <- lists:seq(1, 10000)])).
