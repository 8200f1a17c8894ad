%% Checks: the exact error reason for badmatch, function_clause, case_clause, if_clause, try_clause, badarg, badarith.
-module(exc_error_reasons).
-export([main/0]).

only_ok(ok) -> fine.

reason(F) ->
    try F() of
        V -> {no_error, V}
    catch
        error:R -> R
    end.

main() ->
    V = list_to_tuple([x, y]),
    N = list_to_integer("3"),
    Cases = [fun() -> {a, _} = V end,
             fun() -> [_] = [1, 2] end,
             fun() -> only_ok(not_ok) end,
             fun() -> case N of 1 -> one; 2 -> two end end,
             fun() -> if N > 5 -> big; N < 0 -> neg end end,
             fun() -> try N of 1 -> one catch _:_ -> caught end end,
             fun() -> atom_to_list(N) end,
             fun() -> N + V end,
             fun() -> <<_:8>> = <<N:16>> end,
             fun() -> true = (N =:= 4) end],
    lists:foreach(fun(F) -> io:format("~p~n", [reason(F)]) end, Cases),
    reason(fun() -> only_ok(ok) end).
