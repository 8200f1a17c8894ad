-module(scopes).
-export([branches/1, shadow/1, lc_scope/1, unbound/0, alias/1, same_var/1, fun_local/0]).

branches(X) ->
    case X of
        a -> Y = 1, Z = 2;
        b -> Y = 3, Z = 4
    end,
    {Y, Z}.
shadow(X) -> [X || X <- [1, 2]] ++ [X].
lc_scope(L) -> [Y || X <- L, Y <- [X, X]].
unbound() -> {A, _}.
alias({_, B} = {A, _} = T) -> {A, B, T}.
same_var({X, X}) -> X.
fun_local() -> F = fun() -> V = 1, V end, V = 2, {F, V}.
