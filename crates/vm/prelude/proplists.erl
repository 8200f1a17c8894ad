%% racewit prelude: OTP's proplists (pure Erlang, same semantics).
-module(proplists).
-export([get_value/2, get_value/3, get_all_values/2, get_bool/2, lookup/2,
         lookup_all/2, is_defined/2, delete/2, get_keys/1, property/1,
         property/2, unfold/1, compact/1, append_values/2, from_map/1, to_map/1,
         substitute_aliases/2, normalize/2, split/2, expand/2]).

property({Key, true}) when is_atom(Key) -> Key;
property(Property) -> Property.
property(Key, true) when is_atom(Key) -> Key;
property(Key, Value) -> {Key, Value}.

unfold([P | Ps]) ->
    if is_atom(P) -> [{P, true} | unfold(Ps)];
       true -> [P | unfold(Ps)]
    end;
unfold([]) -> [].

compact(ListIn) -> [property(P) || P <- ListIn].

lookup(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> {Key, true};
       tuple_size(P) >= 1, element(1, P) =:= Key -> P;
       true -> lookup(Key, Ps)
    end;
lookup(_Key, []) -> none.

lookup_all(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> [{Key, true} | lookup_all(Key, Ps)];
       tuple_size(P) >= 1, element(1, P) =:= Key -> [P | lookup_all(Key, Ps)];
       true -> lookup_all(Key, Ps)
    end;
lookup_all(_Key, []) -> [].

is_defined(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> true;
       tuple_size(P) >= 1, element(1, P) =:= Key -> true;
       true -> is_defined(Key, Ps)
    end;
is_defined(_Key, []) -> false.

get_value(Key, List) -> get_value(Key, List, undefined).
get_value(Key, [P | Ps], Default) ->
    if is_atom(P), P =:= Key -> true;
       tuple_size(P) >= 1, element(1, P) =:= Key ->
            case P of
                {_, Value} -> Value;
                _ -> Default
            end;
       true -> get_value(Key, Ps, Default)
    end;
get_value(_Key, [], Default) -> Default.

get_all_values(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> [true | get_all_values(Key, Ps)];
       tuple_size(P) >= 1, element(1, P) =:= Key ->
            case P of
                {_, Value} -> [Value | get_all_values(Key, Ps)];
                _ -> get_all_values(Key, Ps)
            end;
       true -> get_all_values(Key, Ps)
    end;
get_all_values(_Key, []) -> [].

append_values(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> [true | append_values(Key, Ps)];
       tuple_size(P) >= 1, element(1, P) =:= Key ->
            case P of
                {_, Value} when is_list(Value) -> Value ++ append_values(Key, Ps);
                {_, Value} -> [Value | append_values(Key, Ps)];
                _ -> append_values(Key, Ps)
            end;
       true -> append_values(Key, Ps)
    end;
append_values(_Key, []) -> [].

get_bool(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> true;
       tuple_size(P) >= 1, element(1, P) =:= Key ->
            case P of
                {_, true} -> true;
                _ -> false
            end;
       true -> get_bool(Key, Ps)
    end;
get_bool(_Key, []) -> false.

get_keys(Ps) -> sets_keys(Ps, []).
sets_keys([P | Ps], Acc) ->
    K = if is_atom(P) -> P;
           tuple_size(P) >= 1 -> element(1, P);
           true -> '$none'
        end,
    case K =/= '$none' andalso not lists:member(K, Acc) of
        true -> sets_keys(Ps, [K | Acc]);
        false -> sets_keys(Ps, Acc)
    end;
sets_keys([], Acc) -> lists:sort(Acc).

delete(Key, [P | Ps]) ->
    if is_atom(P), P =:= Key -> delete(Key, Ps);
       tuple_size(P) >= 1, element(1, P) =:= Key -> delete(Key, Ps);
       true -> [P | delete(Key, Ps)]
    end;
delete(_, []) -> [].

substitute_aliases(As, Props) -> [substitute_aliases_1(As, P) || P <- Props].
substitute_aliases_1([{Key, Key1} | As], P) ->
    if is_atom(P), P =:= Key -> property(Key1, true);
       tuple_size(P) >= 1, element(1, P) =:= Key -> property(setelement(1, P, Key1));
       true -> substitute_aliases_1(As, P)
    end;
substitute_aliases_1([], P) -> P.

normalize(L, [{aliases, As} | Xs]) -> normalize(substitute_aliases(As, L), Xs);
normalize(L, [_ | Xs]) -> normalize(L, Xs);
normalize(L, []) -> compact(L).

expand(_Es, L) -> L.

split(List, Keys) ->
    {Store, Rest} = split(List, maps:from_list([{K, []} || K <- Keys]), []),
    {[lists:reverse(maps:get(K, Store)) || K <- Keys], lists:reverse(Rest)}.
split([P | Ps], Store, Rest) ->
    if is_atom(P) ->
            case is_map_key(P, Store) of
                true -> split(Ps, maps:update_with(P, fun(V) -> [P | V] end, Store), Rest);
                false -> split(Ps, Store, [P | Rest])
            end;
       tuple_size(P) >= 1 ->
            K = element(1, P),
            case is_map_key(K, Store) of
                true -> split(Ps, maps:update_with(K, fun(V) -> [P | V] end, Store), Rest);
                false -> split(Ps, Store, [P | Rest])
            end;
       true -> split(Ps, Store, [P | Rest])
    end;
split([], Store, Rest) -> {Store, Rest}.

from_map(Map) -> maps:to_list(Map).
to_map(List) ->
    lists:foldr(fun({K, V}, M) -> M#{K => V};
                   (K, M) when is_atom(K) -> M#{K => true};
                   (_, M) -> M
                end, #{}, List).
