%% Checks: try/of/catch/after ordering, class matching (throw/error/exit), rethrow, nested try, after runs once, catch-all.
-module(exc_try_catch).
-export([main/0]).

classify(F) ->
    try F() of
        Val -> {value, Val}
    catch
        throw:T -> {thrown, T};
        error:E -> {error, E};
        exit:X -> {exited, X}
    after
        io:format("after ~p~n", [self() =:= self()])
    end.

nested() ->
    try
        try throw(inner)
        catch throw:inner -> throw(outer)
        after io:format("inner after~n")
        end
    catch
        throw:outer -> caught_outer
    end.

main() ->
    io:format("~p~n", [classify(fun() -> 42 end)]),
    io:format("~p~n", [classify(fun() -> throw(ball) end)]),
    io:format("~p~n", [classify(fun() -> error(oops) end)]),
    io:format("~p~n", [classify(fun() -> exit(bye) end)]),
    io:format("~p~n", [classify(fun() -> erlang:error({custom, 1}, [arg]) end)]),
    io:format("~p~n", [nested()]),
    R = try
            try error(first) catch error:first -> erlang:raise(error, second, []) end
        catch
            C:E -> {C, E}
        end,
    io:format("~p~n", [R]),
    X = try throw(1) catch Class:Reason -> {Class, Reason} end,
    io:format("~p~n", [X]),
    Y = try ok after io:format("after without catch~n") end,
    io:format("~p~n", [Y]),
    Z = try 10 of N when N > 5 -> big; _ -> small catch _:_ -> err end,
    io:format("~p~n", [Z]),
    W = try exit(normal) catch exit:normal -> exit_normal_caught end,
    W.
