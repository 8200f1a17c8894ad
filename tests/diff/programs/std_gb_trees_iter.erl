%% Checks: OTP's gb_trees: balance, is_defined, get, take_smallest/largest, iterator with order (OTP 25 reversed), from_orddict, update errors.
-module(std_gb_trees_iter).
-export([main/0]).
main() ->
    T = gb_trees:from_orddict([{I, I * 10} || I <- lists:seq(1, 7)]),
    io:format("~p ~p~n", [gb_trees:is_defined(3, T), gb_trees:get(4, T)]),
    {K, V, T2} = gb_trees:take_smallest(T), {K2, V2, _} = gb_trees:take_largest(T2),
    io:format("~p~n", [[K, V, K2, V2]]),
    I = gb_trees:iterator(T, reversed),
    {A, _, I2} = gb_trees:next(I), {B, _, _} = gb_trees:next(I2),
    io:format("~p~n", [[A, B]]),
    io:format("~p~n", [gb_trees:to_list(gb_trees:balance(gb_trees:delete(1, T)))]),
    R = try gb_trees:update(99, x, T) catch error:E -> E end,
    io:format("~p ~p~n", [R, gb_trees:is_empty(gb_trees:empty())]),
    ok.
