%% Checks: OTP's gb_trees from source: insert/enter/update/delete_any/lookup/take, iterators from a key, smallest/largest, map, errors.
-module(std_gb_trees_ops).
-export([main/0]).
main() ->
    T = lists:foldl(fun(K, Acc) -> gb_trees:insert(K, K * K, Acc) end, gb_trees:empty(), [5, 3, 8, 1, 4]),
    io:format("~p~n", [gb_trees:to_list(T)]),
    io:format("~p ~p~n", [gb_trees:lookup(3, T), gb_trees:lookup(9, T)]),
    io:format("~p~n", [gb_trees:to_list(gb_trees:enter(9, x, gb_trees:update(1, one, T)))]),
    io:format("~p ~p~n", [gb_trees:smallest(T), gb_trees:largest(T)]),
    {V, T2} = gb_trees:take(5, T),
    io:format("~p ~p~n", [V, gb_trees:keys(T2)]),
    It = gb_trees:iterator_from(4, T),
    {K1, _, It2} = gb_trees:next(It), {K2, _, _} = gb_trees:next(It2),
    io:format("~p~n", [[K1, K2]]),
    io:format("~p~n", [gb_trees:values(gb_trees:map(fun(_, X) -> X + 1 end, T))]),
    R = try gb_trees:insert(3, dup, T) catch error:E -> E end,
    io:format("~p ~p~n", [R, gb_trees:size(gb_trees:delete_any(42, T))]),
    ok.
