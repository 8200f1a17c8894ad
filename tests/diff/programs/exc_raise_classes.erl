%% Checks: erlang:raise for each class, error/2 and error/3 reasons, exit from a nested fun, throw of complex terms, catch-all _:_ patterns.
-module(exc_raise_classes).
-export([main/0]).

catch_all(F) -> try F() catch Class:Reason -> {Class, Reason} end.

main() ->
    io:format("~p~n", [catch_all(fun() -> erlang:raise(throw, {a, [b]}, []) end)]),
    io:format("~p~n", [catch_all(fun() -> erlang:raise(exit, shutdown, []) end)]),
    io:format("~p~n", [catch_all(fun() -> erlang:raise(error, {x, 1}, []) end)]),
    io:format("~p~n", [catch_all(fun() -> error(reason, [arg1, arg2]) end)]),
    io:format("~p~n", [catch_all(fun() -> error(reason3, none, [{error_info, #{}}]) end)]),
    io:format("~p~n", [catch_all(fun() -> (fun() -> exit({nested, exit}) end)() end)]),
    io:format("~p~n", [catch_all(fun() -> throw(#{complex => [1, {2}]}) end)]),
    io:format("~p~n", [catch_all(fun() -> throw(<<"bin">>) end)]),
    R = try throw(x) catch _:_ -> caught_any end,
    io:format("~p~n", [R]),
    R2 = try exit(y) catch throw:_ -> wrong; _:Y -> {right, Y} end,
    io:format("~p~n", [R2]),
    R3 = try error(z) catch error:z when false -> guarded; error:z -> unguarded end,
    R3.
