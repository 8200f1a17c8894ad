%% Checks: the interpreter's fast paths at their edges: integer clause heads met by floats,
%% bignums and atoms (in body and tail calls, named funs), comparisons returned at once,
%% small-integer overflow into bignums, deep recursion over many register chunks.
-module(hot_paths).
-export([main/0]).

kind(0) -> zero;
kind(1) -> one;
kind(X) -> {other, X}.

tail_kind(X) -> kind(X).

code(200) -> ok;
code(404) -> missing;
code(_) -> other.

pick(0, _) -> a;
pick(_, 0) -> b;
pick(_, _) -> c.

dup(1) -> first;
dup(1) -> second;
dup(-2) -> minus;
dup(_) -> none.

count(0, Acc) -> Acc;
count(N, Acc) -> count(N - 1, Acc + 1).

sum(0) -> 0;
sum(N) -> N + sum(N - 1).

is_odd(X) -> X rem 2 =:= 1.
less(X, Y) -> X < Y.
same(X, Y) -> X == Y.
square(X) -> X * X.
next(X) -> X + 1.

fact(0) -> 1;
fact(N) -> N * fact(N - 1).

reason(F) ->
    try F() catch error:R -> R end.

main() ->
    io:format("~p~n", [[kind(0), kind(1), kind(0.0), kind(1.0), kind(2), kind(a),
                        kind(1 bsl 70), kind([1]), kind(-1)]]),
    io:format("~p~n", [[tail_kind(0), tail_kind(1.0), tail_kind(b)]]),
    io:format("~p~n", [[code(200), code(404), code(201), code(200.0),
                        pick(0, 0), pick(1, 0), pick(1, 1), pick(0.0, 0),
                        dup(1), dup(-2), dup(0), dup(-1), dup(1 bsl 64)]]),
    io:format("~p~n", [count(100000, 0)]),
    io:format("~p~n", [sum(200000)]),
    io:format("~p~n", [[is_odd(3), is_odd(4), is_odd(-3), less(1, 2), less(2, 1),
                        less(1, 1.5), less(a, 1), same(1, 1.0), same(2, 3)]]),
    io:format("~p~n", [[square(1 bsl 40), square(-(1 bsl 40)),
                        next(16#7fffffffffffffff), next(1.5), fact(25)]]),
    K = 10,
    io:format("~p~n", [lists:map(fun kind/1, [0, 1, 2])]),
    io:format("~p~n", [lists:map(fun(X) -> X + K end, [1, 2, 3])]),
    Fib = fun F(0) -> 0; F(1) -> 1; F(N) -> F(N - 1) + F(N - 2) end,
    io:format("~p~n", [[Fib(0), Fib(1), Fib(15)]]),
    io:format("~p~n", [lists:foldl(fun erlang:max/2, 0, [3, 9, 2, 1 bsl 65, 4])]),
    io:format("~p~n", [[reason(fun() -> next(x) end), reason(fun() -> is_odd(x) end),
                        reason(fun() -> sum(a) end)]]),
    [H | T] = lists:seq(1, 5),
    {H, T, length([X || X <- lists:seq(1, 50000), is_odd(X)])}.
