%% Checks: try ... catch C:R:Stack binds a list stack; erlang:raise rethrows the same class/reason; raise with a bad class returns badarg (only shapes printed).
-module(exc_stacktrace).
-export([main/0]).

deep(0) -> error(bottom);
deep(N) -> [deep(N - 1)].

main() ->
    R1 = try deep(3) catch error:R:St -> {R, is_list(St), St =/= []} end,
    io:format("~p~n", [R1]),
    R2 = try
             try throw(x) catch C:Rs:St2 -> erlang:raise(C, {wrapped, Rs}, St2) end
         catch
             throw:W -> W
         end,
    io:format("~p~n", [R2]),
    St3 = try error(top) catch error:top:S3 -> S3 end,
    io:format("~p~n", [lists:all(fun(Fr) -> tuple_size(Fr) =:= 4 end, St3)]),
    R3 = erlang:raise(bad_class, x, []),
    io:format("~p~n", [R3]),
    ok.
