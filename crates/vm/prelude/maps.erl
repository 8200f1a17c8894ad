%% racewit prelude: the higher-order functions of OTP's maps module.
-module(maps).
-export([map/2, fold/3, filter/2, foreach/2, update_with/3, update_with/4,
         filtermap/2, next/1, groups_from_list/2, groups_from_list/3, intersect/2,
         intersect_with/3, merge_with/3]).

map(F, M) when is_function(F, 2), is_map(M) ->
    maps:from_list([{K, F(K, V)} || {K, V} <- maps:to_list(M)]);
map(F, M) -> erlang:error(if is_map(M) -> badarg; true -> {badmap, M} end, [F, M]).

fold(F, Acc, M) when is_function(F, 3), is_map(M) ->
    fold_1(F, Acc, maps:to_list(M));
fold(F, Acc, M) -> erlang:error(if is_map(M) -> badarg; true -> {badmap, M} end, [F, Acc, M]).
fold_1(F, Acc, [{K, V} | T]) -> fold_1(F, F(K, V, Acc), T);
fold_1(_F, Acc, []) -> Acc.

filter(F, M) when is_function(F, 2), is_map(M) ->
    maps:from_list([{K, V} || {K, V} <- maps:to_list(M), F(K, V)]);
filter(F, M) -> erlang:error(if is_map(M) -> badarg; true -> {badmap, M} end, [F, M]).

filtermap(F, M) when is_function(F, 2), is_map(M) ->
    maps:from_list(filtermap_1(F, maps:to_list(M)));
filtermap(F, M) -> erlang:error({badmap, M}, [F, M]).
filtermap_1(F, [{K, V} | T]) ->
    case F(K, V) of
        true -> [{K, V} | filtermap_1(F, T)];
        {true, NV} -> [{K, NV} | filtermap_1(F, T)];
        false -> filtermap_1(F, T)
    end;
filtermap_1(_F, []) -> [].

foreach(F, M) when is_function(F, 2), is_map(M) ->
    lists:foreach(fun({K, V}) -> F(K, V) end, maps:to_list(M));
foreach(F, M) -> erlang:error({badmap, M}, [F, M]).

update_with(K, F, M) when is_function(F, 1), is_map(M) ->
    case M of
        #{K := V} -> M#{K := F(V)};
        #{} -> erlang:error({badkey, K}, [K, F, M])
    end;
update_with(K, F, M) -> erlang:error({badmap, M}, [K, F, M]).

update_with(K, F, Init, M) when is_function(F, 1), is_map(M) ->
    case M of
        #{K := V} -> M#{K := F(V)};
        #{} -> M#{K => Init}
    end;
update_with(K, F, Init, M) -> erlang:error({badmap, M}, [K, F, Init, M]).

next({K, V, I}) -> {K, V, I};
next([Path | M]) when is_integer(Path), is_map(M) ->
    erts_internal:map_next(Path, M, iterator);
next(none) -> none;
next(Iter) -> erlang:error(badarg, [Iter]).

groups_from_list(F, L) -> groups_from_list(F, fun(X) -> X end, L).
groups_from_list(F, G, L) ->
    R = lists:foldl(fun(X, Acc) ->
                        K = F(X),
                        maps:update_with(K, fun(Vs) -> [G(X) | Vs] end, [G(X)], Acc)
                    end, #{}, L),
    maps:map(fun(_K, Vs) -> lists:reverse(Vs) end, R).

intersect(M1, M2) -> intersect_with(fun(_K, _V1, V2) -> V2 end, M1, M2).
intersect_with(F, M1, M2) ->
    maps:from_list([{K, F(K, V1, maps:get(K, M2))} || {K, V1} <- maps:to_list(M1), maps:is_key(K, M2)]).

merge_with(F, M1, M2) ->
    fold(fun(K, V2, Acc) ->
             case Acc of
                 #{K := V1} -> Acc#{K := F(K, V1, V2)};
                 #{} -> Acc#{K => V2}
             end
         end, M1, M2).
