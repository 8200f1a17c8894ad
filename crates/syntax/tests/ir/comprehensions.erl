-module(comprehensions).
-export([lc/1, bc/1, mc/1, nested/2, strict/1]).

lc(L) -> [X * 2 || X <- L, X > 1, is_integer(X)].
bc(B) -> << <<(X + 1):8>> || <<X:8>> <= B >>.
mc(M) -> {#{K => V + 1 || K := V <- M}, [{K, V} || K := V <- M], #{X => 1 || X <- [a, b]}}.
nested(L1, L2) -> [{X, Y} || X <- L1, Y <- L2, X =/= Y].
strict(L) -> [X || {ok, X} <:- L].
