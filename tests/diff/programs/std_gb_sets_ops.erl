%% Checks: OTP's gb_sets from source: add/union/intersection/difference, filter, fold, next iterators, take_smallest/largest, is_member.
-module(std_gb_sets_ops).
-export([main/0]).
main() ->
    S = gb_sets:from_list([3, 1, 4, 1, 5, 9, 2, 6]),
    io:format("~p ~p~n", [gb_sets:to_list(S), gb_sets:size(S)]),
    S2 = gb_sets:from_list([4, 5, 10]),
    io:format("~p~n", [gb_sets:to_list(gb_sets:union(S, S2))]),
    io:format("~p~n", [gb_sets:to_list(gb_sets:intersection(S, S2))]),
    io:format("~p~n", [gb_sets:to_list(gb_sets:difference(S, S2))]),
    io:format("~p~n", [gb_sets:to_list(gb_sets:filter(fun(X) -> X > 3 end, S))]),
    io:format("~p~n", [gb_sets:fold(fun(X, A) -> X + A end, 0, S)]),
    {Min, S3} = gb_sets:take_smallest(S), {Max, _} = gb_sets:take_largest(S3),
    io:format("~p ~p ~p~n", [Min, Max, gb_sets:is_member(9, S)]),
    {N1, I} = gb_sets:next(gb_sets:iterator_from(5, S)), {N2, _} = gb_sets:next(I),
    io:format("~p~n", [[N1, N2]]),
    ok.
