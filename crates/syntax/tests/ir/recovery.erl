-module(recovery).
-export([good1/0, broken/1, good2/0, partly/1]).

good1() -> ok.
broken(X) -> case X of a -> 1 .
good2() -> {fine}.
partly(1) -> one;
partly(2) -> (two;
partly(3) -> three.
last() -> ok.
