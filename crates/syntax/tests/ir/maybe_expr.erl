-module(maybe_expr).
-feature(maybe_expr, enable).
-export([m1/1, m2/1]).

m1(X) ->
    maybe
        {ok, A} ?= f(X),
        B = A + 1,
        {ok, C} ?= f(B),
        C
    else
        error -> failed;
        {error, R} -> R
    end.
m2(X) -> maybe {ok, V} ?= f(X), V end.
f(X) -> {ok, X}.
