-module(guards).
-export([g/1, rec/1]).
-record(p, {x, y}).

g(X) when is_integer(X), X > 0; is_float(X) -> pos;
g(X) when is_atom(X), X =/= undefined -> atom;
g(X) when not is_list(X) -> notlist;
g(X) when tuple_size(X) =:= 2, element(1, X) == ok -> ok_pair;
g(_) -> other.
rec(P) when P#p.x > 0, is_record(P, p) -> P#p.y.
