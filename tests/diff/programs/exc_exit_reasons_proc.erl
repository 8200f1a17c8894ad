%% Checks: exit reasons observed by monitors for common runtime errors in processes: badarith, badmatch, function_clause, undef, case_clause, nocatch.
-module(exc_exit_reasons_proc).
-export([main/0, f/1]).

f(a) -> ok.

reason(Fun) ->
    {_, Ref} = spawn_monitor(Fun),
    receive
        {'DOWN', Ref, process, _, {R, St}} when is_list(St) -> R;
        {'DOWN', Ref, process, _, R} -> R
    end.

main() ->
    X = list_to_integer("0"),
    Funs = [fun() -> 1 div X end,
            fun() -> {ok, _} = list_to_tuple([error, x]) end,
            fun() -> ?MODULE:f(b) end,
            fun() -> ?MODULE:g() end,
            fun() -> case X of 1 -> one end end,
            fun() -> throw(ball) end,
            fun() -> exit(plain) end,
            fun() -> error({tuple, reason}) end,
            fun() -> element(5, {}) end,
            fun() -> ok end],
    [io:format("~p~n", [reason(F)]) || F <- Funs],
    length(Funs).
