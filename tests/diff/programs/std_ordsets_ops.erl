%% Checks: OTP's ordsets from source: union/intersection/subtract (binary and n-ary), is_subset, is_disjoint, fold, filter, add/del.
-module(std_ordsets_ops).
-export([main/0]).
main() ->
    A = ordsets:from_list([c, a, b, a]), B = ordsets:from_list([b, d]),
    io:format("~p ~p~n", [A, B]),
    io:format("~p ~p ~p~n", [ordsets:union(A, B), ordsets:intersection(A, B), ordsets:subtract(A, B)]),
    io:format("~p ~p~n", [ordsets:union([A, B, [z]]), ordsets:intersection([A, B, [b]])]),
    io:format("~p ~p~n", [ordsets:is_subset([a], A), ordsets:is_disjoint(A, [x])]),
    io:format("~p~n", [ordsets:fold(fun(X, Acc) -> [X | Acc] end, [], A)]),
    io:format("~p ~p~n", [ordsets:add_element(aa, A), ordsets:del_element(b, A)]),
    io:format("~p~n", [ordsets:filter(fun(X) -> X =/= a end, A)]),
    ok.
