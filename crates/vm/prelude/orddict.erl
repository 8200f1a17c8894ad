%% racewit prelude: orddict (ordered lists of {Key, Value}), as OTP's.
-module(orddict).
-export([new/0, is_key/2, to_list/1, from_list/1, size/1, is_empty/1, fetch/2,
         find/2, fetch_keys/1, erase/2, store/3, append/3, append_list/3,
         update/3, update/4, update_counter/3, fold/3, map/2, filter/2, merge/3, take/2]).

new() -> [].
is_key(Key, [{K,_}|_]) when Key < K -> false;
is_key(Key, [{K,_}|Dict]) when Key > K -> is_key(Key, Dict);
is_key(_Key, [{_K,_Val}|_]) -> true;
is_key(_, []) -> false.
to_list(Dict) -> Dict.
from_list([]) -> [];
from_list([{_,_}]=Pair) -> Pair;
from_list(Pairs) -> lists:ukeysort(1, reverse_pairs(Pairs, [])).
size(D) -> length(D).
is_empty([]) -> true;
is_empty([_|_]) -> false.
fetch(Key, [{K,_}|D]) when Key > K -> fetch(Key, D);
fetch(Key, [{K,Value}|_]) when Key == K -> Value.
find(Key, [{K,_}|_]) when Key < K -> error;
find(Key, [{K,_}|D]) when Key > K -> find(Key, D);
find(_Key, [{_K,Value}|_]) -> {ok,Value};
find(_, []) -> error.
fetch_keys([{Key,_}|Dict]) -> [Key|fetch_keys(Dict)];
fetch_keys([]) -> [].
erase(Key, [{K,_}=E|Dict]) when Key < K -> [E|Dict];
erase(Key, [{K,_}=E|Dict]) when Key > K -> [E|erase(Key, Dict)];
erase(_Key, [{_K,_Val}|Dict]) -> Dict;
erase(_, []) -> [].
take(Key, Dict) -> take_1(Key, Dict, []).
take_1(Key, [{K,_}|_], _Acc) when Key < K -> error;
take_1(Key, [{K,_}=P|D], Acc) when Key > K -> take_1(Key, D, [P|Acc]);
take_1(_Key, [{_K,Value}|D], Acc) -> {Value,lists:reverse(Acc, D)};
take_1(_, [], _) -> error.
store(Key, New, [{K,_}|_]=Dict) when Key < K -> [{Key,New}|Dict];
store(Key, New, [{K,_}=E|Dict]) when Key > K -> [E|store(Key, New, Dict)];
store(Key, New, [{_K,_Old}|Dict]) -> [{Key,New}|Dict];
store(Key, New, []) -> [{Key,New}].
append(Key, New, [{K,_}|_]=Dict) when Key < K -> [{Key,[New]}|Dict];
append(Key, New, [{K,_}=E|Dict]) when Key > K -> [E|append(Key, New, Dict)];
append(Key, New, [{_K,Old}|Dict]) -> [{Key,Old ++ [New]}|Dict];
append(Key, New, []) -> [{Key,[New]}].
append_list(Key, NewList, [{K,_}|_]=Dict) when Key < K -> [{Key,NewList}|Dict];
append_list(Key, NewList, [{K,_}=E|Dict]) when Key > K -> [E|append_list(Key, NewList, Dict)];
append_list(Key, NewList, [{_K,Old}|Dict]) -> [{Key,Old ++ NewList}|Dict];
append_list(Key, NewList, []) -> [{Key,NewList}].
update(Key, Fun, [{K,_}=E|Dict]) when Key > K -> [E|update(Key, Fun, Dict)];
update(Key, Fun, [{K,Val}|Dict]) when Key == K -> [{Key,Fun(Val)}|Dict].
update(Key, _, Init, [{K,_}|_]=Dict) when Key < K -> [{Key,Init}|Dict];
update(Key, Fun, Init, [{K,_}=E|Dict]) when Key > K -> [E|update(Key, Fun, Init, Dict)];
update(Key, Fun, _Init, [{_K,Val}|Dict]) -> [{Key,Fun(Val)}|Dict];
update(Key, _, Init, []) -> [{Key,Init}].
update_counter(Key, Incr, [{K,_}|_]=Dict) when Key < K -> [{Key,Incr}|Dict];
update_counter(Key, Incr, [{K,_}=E|Dict]) when Key > K -> [E|update_counter(Key, Incr, Dict)];
update_counter(Key, Incr, [{_K,Val}|Dict]) -> [{Key,Val+Incr}|Dict];
update_counter(Key, Incr, []) -> [{Key,Incr}].
fold(F, Acc, [{Key,Val}|D]) -> fold(F, F(Key, Val, Acc), D);
fold(F, Acc, []) when is_function(F, 3) -> Acc.
map(F, [{Key,Val}|D]) -> [{Key,F(Key, Val)}|map(F, D)];
map(F, []) when is_function(F, 2) -> [].
filter(F, [{Key,Val}=E|D]) ->
    case F(Key, Val) of
        true -> [E|filter(F, D)];
        false -> filter(F, D)
    end;
filter(F, []) when is_function(F, 2) -> [].
merge(F, [{K1,_}=E1|D1], [{K2,_}=E2|D2]) when K1 < K2 -> [E1|merge(F, D1, [E2|D2])];
merge(F, [{K1,_}=E1|D1], [{K2,_}=E2|D2]) when K1 > K2 -> [E2|merge(F, [E1|D1], D2)];
merge(F, [{K1,V1}|D1], [{_K2,V2}|D2]) -> [{K1,F(K1, V1, V2)}|merge(F, D1, D2)];
merge(F, [], D2) when is_function(F, 3) -> D2;
merge(F, D1, []) when is_function(F, 3) -> D1.
reverse_pairs([{_,_}=H|T], Acc) -> reverse_pairs(T, [H|Acc]);
reverse_pairs([], Acc) -> Acc.
