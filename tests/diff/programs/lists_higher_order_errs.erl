%% Checks: OTP's lists higher-order functions given a bad fun or a bad list: the error reasons (function_clause, badfun, badarity).
-module(lists_higher_order_errs).
-export([main/0]).
main() ->
    F = fun(G) -> try G() catch error:E -> E end end,
    io:format("~p~n", [F(fun() -> lists:map(not_fun, [1]) end)]),
    io:format("~p~n", [element(1, F(fun() -> lists:map(fun(X, Y) -> X + Y end, [1]) end))]),
    io:format("~p~n", [F(fun() -> lists:foldl(fun(X, A) -> X + A end, 0, improper) end)]),
    io:format("~p~n", [F(fun() -> lists:filter(fun(_) -> maybe end, [1]) end)]),
    io:format("~p~n", [F(fun() -> lists:all(fun(_) -> true end, [a | b]) end)]),
    ok.
