%% Checks: the classic whereis-then-register pattern run sequentially by several processes (token passing makes it deterministic): first registers, rest reuse.
-module(reg_lookup_then_register).
-export([main/0]).

get_or_start() ->
    case whereis(rw_singleton) of
        undefined ->
            P = spawn(fun() -> receive stop -> ok end end),
            register(rw_singleton, P),
            {started, P};
        P ->
            {reused, P}
    end.

main() ->
    Self = self(),
    Run = fun(I, Next) ->
                  spawn(fun() ->
                                receive go -> ok end,
                                {How, P} = get_or_start(),
                                Self ! {result, I, How, P},
                                Next ! go
                        end)
          end,
    Last = spawn(fun() -> receive go -> Self ! all_done end end),
    First = lists:foldl(fun(I, Next) -> Run(I, Next) end, Last, lists:seq(5, 1, -1)),
    First ! go,
    receive all_done -> ok end,
    Results = lists:sort([receive {result, I, How, P} -> {I, How, P} end || _ <- lists:seq(1, 5)]),
    io:format("~p~n", [[{I, How} || {I, How, _} <- Results]]),
    io:format("one pid: ~p~n", [length(lists:usort([P || {_, _, P} <- Results])) =:= 1]),
    rw_singleton ! stop,
    ok.
