%% Checks: OTP's sets: add_element idempotence, is_disjoint, union/intersection of lists of sets, map (OTP 25? no: filter) and to_list lengths.
-module(std_sets_ops2).
-export([main/0]).
main() ->
    S = lists:foldl(fun sets:add_element/2, sets:new(), [a, b, a, c, b]),
    io:format("~p~n", [sets:size(S)]),
    io:format("~p~n", [sets:is_disjoint(S, sets:from_list([x, y]))]),
    U = sets:union([sets:from_list([1]), sets:from_list([2]), sets:from_list([1, 3])]),
    io:format("~p~n", [lists:sort(sets:to_list(U))]),
    I = sets:intersection([sets:from_list([1, 2, 3]), sets:from_list([2, 3]), sets:from_list([3, 2, 9])]),
    io:format("~p~n", [lists:sort(sets:to_list(I))]),
    io:format("~p~n", [sets:is_element(b, sets:del_element(b, S))]),
    io:format("~p~n", [sets:is_subset(sets:new(), S)]),
    ok.
