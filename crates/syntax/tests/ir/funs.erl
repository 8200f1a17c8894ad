-module(funs).
-export([anon/1, named/0, refs/2, captures/2, nested/1, shadow/1]).

anon(X) -> F = fun(Y) -> X + Y end, F(1).
named() -> Fact = fun Fact(0) -> 1; Fact(N) when N > 0 -> N * Fact(N - 1) end, Fact(5).
refs(M, F) -> {fun anon/1, fun lists:map/2, fun M:F/1, fun M:F/3, fun is_atom/1, fun erlang:self/0}.
captures(A, B) -> fun(C) -> {A, C} end.
nested(A) -> fun(B) -> fun(C) -> {A, B, C} end end.
shadow(X) -> F = fun(X) -> X end, {F(1), X}.
