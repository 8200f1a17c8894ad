-module(operators).
-export([prec/3, assoc/3, unary/1, bool/2, cmp/2, catches/1]).

prec(A, B, C) -> A + B * C - A div B rem C.
assoc(A, B, C) -> {A - B - C, A ++ B ++ C, A -- B -- C, A / B / C}.
unary(X) -> {-X, +X, bnot X, not X, - - X, -1, -2.5, -X * 2, -(X * 2)}.
bool(A, B) -> {A andalso B, A orelse B, A andalso B orelse A, A and B or A xor B}.
cmp(A, B) -> {A == B, A /= B, A =:= B, A =/= B, A < B, A =< B, A > B, A >= B, A + 1 < B * 2}.
catches(X) -> Y = catch X + 1, Z = (catch throw(X)), {Y, Z, band_bor(X band 3 bor 4 bxor 5 bsl 1 bsr 2)}.

band_bor(V) -> V.
