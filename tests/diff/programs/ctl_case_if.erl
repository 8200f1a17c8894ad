%% Checks: case with guards, guard sequences (; and ,), andalso/orelse short-circuit, if with true fallback, guard BIFs failing silently.
-module(ctl_case_if).
-export([main/0]).

kind(X) ->
    case X of
        N when is_integer(N), N > 0 -> pos_int;
        N when is_integer(N); is_float(N) -> other_number;
        [_ | _] -> nonempty_list;
        {A, A} -> same_pair;
        {_, _} -> pair;
        _ -> something
    end.

sign(N) ->
    if N > 0 -> plus;
       N < 0 -> minus;
       true -> zero
    end.

guard_fail(X) when length(X) > 2 -> long;
guard_fail(_) -> short_or_not_list.

main() ->
    io:format("~p~n", [[kind(V) || V <- [5, -5, 1.5, [a], {1, 1}, {1, 2}, []]]]),
    io:format("~p~n", [[sign(N) || N <- [3, -3, 0]]]),
    io:format("~p~n", [[guard_fail(V) || V <- [[1, 2, 3], [1], not_a_list]]]),
    io:format("~p~n", [false andalso error(never)]),
    io:format("~p~n", [true orelse error(never)]),
    io:format("~p~n", [true andalso 42]),
    io:format("~p~n", [(1 > 0) and (2 > 1)]),
    io:format("~p~n", [not true]),
    io:format("~p~n", [true xor true]),
    E = try (1 > 0) and 42 catch error:R -> R end,
    io:format("~p~n", [E]),
    X = case {1, 2} of {A, B} when A < B -> A + B end,
    X.
