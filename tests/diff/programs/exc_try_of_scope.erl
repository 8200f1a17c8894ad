%% Checks: exceptions in the `of` clauses are not caught by the same try; variables bound in try body usable in of; after runs on both paths.
-module(exc_try_of_scope).
-export([main/0]).

run(X) ->
    try
        try X of
            1 -> error(in_of_clause);
            N when N > 10 -> {big, N};
            Other -> {other, Other}
        catch
            error:in_of_clause -> caught_by_same_try
        after
            io:format("inner after for ~p~n", [X])
        end
    catch
        error:E -> {outer_caught, E}
    end.

main() ->
    io:format("~p~n", [run(1)]),
    io:format("~p~n", [run(20)]),
    io:format("~p~n", [run(5)]),
    R = try Y = 10, Y * 2 of Z -> Z + 1 catch _:_ -> err end,
    io:format("~p~n", [R]),
    R2 = try list_to_integer("x") of _ -> no catch error:badarg -> yes end,
    R2.
