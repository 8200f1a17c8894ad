-module(maps_ir).
-export([new/1, update/2, match/1, chain/1]).

new(K) -> #{K => 1, b => [2], "c" => #{}}.
update(M, V) -> M#{a := V, b => V}.
match(#{a := A, <<"k">> := B} = M) -> {A, B, M};
match(#{}) -> empty.
chain(M) -> M#{a => 1}#{b => 2}.
