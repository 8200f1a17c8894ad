%% Checks: errors raised inside list comprehensions, lists:map funs, and nested calls keep their reason; after-clause value is discarded.
-module(exc_in_comprehension).
-export([main/0]).

safe_div(A, B) -> try A div B catch error:badarith -> infinity end.

main() ->
    R1 = try [10 div X || X <- [1, 2, 0, 5]] catch error:E1 -> {caught, E1} end,
    io:format("~p~n", [R1]),
    io:format("~p~n", [[safe_div(10, X) || X <- [1, 2, 0, 5]]]),
    R2 = try lists:map(fun(X) -> {ok, V} = X, V end, [{ok, 1}, {error, 2}]) catch error:E2 -> E2 end,
    io:format("~p~n", [R2]),
    R3 = try lists:foldl(fun(X, Acc) when X > 0 -> Acc + X end, 0, [1, 2, -3]) catch error:E3 -> E3 end,
    io:format("~p~n", [R3]),
    R4 = try 1 after 2 end,
    io:format("~p~n", [R4]),
    R5 = (fun() -> try throw(x) catch throw:x -> from_catch after after_value end end)(),
    io:format("~p~n", [R5]),
    Counter = fun C(0) -> throw(done); C(N) -> C(N - 1) end,
    R6 = catch Counter(1000),
    io:format("~p~n", [R6]),
    R7 = try [throw(X) || X <- [first, second]] catch throw:T -> T end,
    R7.
