%% Checks: tail vs body recursion, accumulators, mutual recursion, deep recursion (100000) without stack issues.
-module(ctl_recursion).
-export([main/0]).

len([]) -> 0;
len([_ | T]) -> 1 + len(T).

sum_acc([], Acc) -> Acc;
sum_acc([H | T], Acc) -> sum_acc(T, Acc + H).

is_even(0) -> true;
is_even(N) -> is_odd(N - 1).
is_odd(0) -> false;
is_odd(N) -> is_even(N - 1).

ackermann(0, N) -> N + 1;
ackermann(M, 0) -> ackermann(M - 1, 1);
ackermann(M, N) -> ackermann(M - 1, ackermann(M, N - 1)).

hanoi(0, _, _, _) -> 0;
hanoi(N, A, B, C) -> hanoi(N - 1, A, C, B) + 1 + hanoi(N - 1, C, B, A).

main() ->
    Big = lists:seq(1, 100000),
    io:format("~p~n", [len(Big)]),
    io:format("~p~n", [sum_acc(Big, 0)]),
    io:format("~p ~p~n", [is_even(1001), is_odd(1001)]),
    io:format("~p~n", [ackermann(2, 3)]),
    io:format("~p~n", [hanoi(10, a, b, c)]),
    Collatz = fun C(1, Steps) -> Steps; C(N, S) when N rem 2 =:= 0 -> C(N div 2, S + 1); C(N, S) -> C(3 * N + 1, S + 1) end,
    io:format("~p~n", [[Collatz(N, 0) || N <- [1, 7, 27, 97]]]),
    ackermann(3, 3).
