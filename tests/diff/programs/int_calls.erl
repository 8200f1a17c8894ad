%% Checks: calls whose one argument is `N - K` or `N + K` just computed (the VM passes the
%% integer straight to the callee): body and tail calls, constant clauses hit and missed,
%% sparse clause tables, overflow into bignums, floats and atoms, deep recursion, crashes.
-module(int_calls).
-export([main/0]).

kind(0) -> zero;
kind(1) -> one;
kind(X) -> {other, X}.

code(200) -> ok;
code(404) -> missing;
code(_) -> other.

down(0) -> done;
down(N) -> down(N - 1).

up(N) when N >= 100000 -> N;
up(N) -> up(N + 3).

depth(0) -> 0;
depth(N) -> 1 + depth(N - 1).

tail_kind(N) -> kind(N - 1).
tail_code(N) -> code(N + 1).

plain(X) -> {plain, X}.

bad(N) -> element(N, {}).

fib(0) -> 0;
fib(1) -> 1;
fib(N) -> fib(N - 1) + fib(N - 2).

reason(F) ->
    try F() catch C:R -> {C, R} end.

main() ->
    io:format("~p~n", [[kind(1 - 1), kind(2 - 1), kind(5 - 1), kind(0 + 1)]]),
    io:format("~p~n", [[tail_kind(1), tail_kind(2), tail_kind(10), tail_kind(1.0),
                        tail_kind(1 bsl 64)]]),
    io:format("~p~n", [[tail_code(199), tail_code(403), tail_code(0), tail_code(199.0)]]),
    io:format("~p~n", [[down(100000), up(1), depth(150000)]]),
    io:format("~p~n", [[plain(7 - 2), plain(16#7fffffffffffffff + 1),
                        plain(-16#8000000000000000 - 1), plain(2.5 - 1)]]),
    io:format("~p~n", [[kind(16#7fffffffffffffff + 1), code(-16#8000000000000000 - 1)]]),
    io:format("~p~n", [[fib(20), fib(2 - 1), fib(3 - 1)]]),
    io:format("~p~n", [[reason(fun() -> bad(3 - 1) end), reason(fun() -> down(a) end),
                        reason(fun() -> tail_kind(x) end)]]),
    X = 41,
    {kind(X - 41), kind(X + 1 - 41), code(X + 159)}.
