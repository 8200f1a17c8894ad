%% Checks: OTP's lists:sort/usort/keysort on 2,000 elements built deterministically (merge sort paths for long runs).
-module(lists_sort_large).
-export([main/0]).
main() ->
    L = [(I * 7919) rem 2003 || I <- lists:seq(1, 2000)],
    S = lists:sort(L),
    io:format("~p ~p ~p~n", [length(S), hd(S), lists:last(S)]),
    io:format("~p~n", [length(lists:usort(L))]),
    K = lists:keysort(2, [{I, X rem 10} || {I, X} <- lists:zip(lists:seq(1, 2000), L)]),
    io:format("~p~n", [lists:sublist(K, 5)]),
    io:format("~p~n", [lists:sort(fun(A, B) -> A >= B end, lists:sublist(L, 10))]),
    ok.
