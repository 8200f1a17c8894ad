%% Checks: OTP's lists: keysort stability on several positions, nth/nthtail errors, sublist edge cases, min/max of mixed terms.
-module(lists_keysort_nth).
-export([main/0]).
main() ->
    L = [{b, 2, x}, {a, 2, y}, {c, 1, z}, {a, 1, w}],
    io:format("~p~n", [lists:keysort(2, L)]),
    io:format("~p~n", [lists:keysort(1, lists:keysort(3, L))]),
    io:format("~p~n", [lists:ukeysort(2, L)]),
    F = fun(G) -> try G() catch error:E -> E end end,
    io:format("~p~n", [[F(fun() -> lists:nth(0, [a]) end), F(fun() -> lists:nthtail(3, [a]) end)]]),
    io:format("~p ~p~n", [lists:sublist([a, b], 5), lists:sublist([a, b, c], 3, 0)]),
    io:format("~p ~p~n", [lists:min([3, 2.0, a]), lists:max([{1}, [1], 1])]),
    io:format("~p~n", [lists:keydelete(a, 1, L)]),
    ok.
