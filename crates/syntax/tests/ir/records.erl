-module(records).
-export([new/0, get/1, set/2, idx/0, match/1, info/0, guard/1, nested/1]).
-record(state, {count = 0 :: integer(), name, items = [] :: [term()], extra = default()}).
-record(empty, {}).

default() -> x.

new() -> #state{name = <<"n">>}.
get(S) -> S#state.count.
set(S, N) -> S#state{count = N, name = undefined}.
idx() -> #state.name.
match(#state{count = C, name = N} = S) when C > 0 -> {C, N, S};
match(#empty{}) -> empty;
match(_) -> other.
info() -> {record_info(fields, state), record_info(size, state), #state{_ = z}}.
guard(X) when is_record(X, state), X#state.count =:= 1 -> yes;
guard(_) -> no.
nested(S) -> (S#state.items)#state.name.
