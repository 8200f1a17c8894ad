-module(blocks).
-export([b/1, matches/1]).

b(X) -> begin Y = X + 1, Y * 2 end.
matches(X) -> A = B = {X, X}, {C, _} = A, {A, B, C}.
