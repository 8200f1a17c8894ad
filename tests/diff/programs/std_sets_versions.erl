%% Checks: OTP's sets from source: version 1 and 2 sets, union/intersection/subtract, is_subset, fold, filter, is_element, del_element.
-module(std_sets_versions).
-export([main/0]).
main() ->
    S1 = sets:from_list([a, b, c]),
    S2 = sets:from_list([b, c, d], [{version, 2}]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:union(S1, S2)))]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:intersection(S1, S2)))]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:subtract(S1, S2)))]),
    io:format("~p ~p~n", [sets:is_subset(sets:from_list([a]), S1), sets:is_element(d, S1)]),
    io:format("~p~n", [sets:fold(fun(_, N) -> N + 1 end, 0, S2)]),
    io:format("~p~n", [lists:sort(sets:to_list(sets:filter(fun(X) -> X =/= b end, S2)))]),
    io:format("~p ~p~n", [sets:size(sets:del_element(a, S1)), sets:is_set(S2)]),
    io:format("~p~n", [S2 =:= sets:from_list([d, c, b], [{version, 2}])]),
    io:format("~p~n", [sets:is_empty(sets:new([{version, 2}]))]),
    ok.
