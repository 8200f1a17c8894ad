%% racewit prelude: ordsets (ordered lists), as OTP's.
-module(ordsets).
-export([new/0, is_set/1, size/1, is_empty/1, to_list/1, from_list/1, is_element/2,
         add_element/2, del_element/2, union/2, union/1, intersection/2, intersection/1,
         is_disjoint/2, subtract/2, is_subset/2, fold/3, filter/2, map/2]).

new() -> [].
is_set([E|Es]) -> is_set(Es, E);
is_set([]) -> true;
is_set(_) -> false.
is_set([E2|Es], E1) when E1 < E2 -> is_set(Es, E2);
is_set([_|_], _) -> false;
is_set([], _) -> true.
size(S) -> length(S).
is_empty(S) -> S =:= [].
to_list(S) -> S.
from_list(L) -> lists:usort(L).
is_element(E, [H|Es]) when E > H -> is_element(E, Es);
is_element(E, [H|_]) when E < H -> false;
is_element(_E, [_H|_]) -> true;
is_element(_, []) -> false.
add_element(E, [H|Es]) when E > H -> [H|add_element(E, Es)];
add_element(E, [H|_]=Set) when E < H -> [E|Set];
add_element(_E, [_H|_]=Set) -> Set;
add_element(E, []) -> [E].
del_element(E, [H|Es]) when E > H -> [H|del_element(E, Es)];
del_element(E, [H|_]=Set) when E < H -> Set;
del_element(_E, [_H|Es]) -> Es;
del_element(_, []) -> [].
union([E1|Es1], [E2|_]=Set2) when E1 < E2 -> [E1|union(Es1, Set2)];
union([E1|_]=Set1, [E2|Es2]) when E1 > E2 -> [E2|union(Es2, Set1)];
union([E1|Es1], [_E2|Es2]) -> [E1|union(Es1, Es2)];
union([], Es2) -> Es2;
union(Es1, []) -> Es1.
union(OrdsetList) -> lists:umerge(OrdsetList).
intersection([E1|Es1], [E2|_]=Set2) when E1 < E2 -> intersection(Es1, Set2);
intersection([E1|_]=Set1, [E2|Es2]) when E1 > E2 -> intersection(Es2, Set1);
intersection([E1|Es1], [_E2|Es2]) -> [E1|intersection(Es1, Es2)];
intersection([], _) -> [];
intersection(_, []) -> [].
intersection([S1,S2|Ss]) -> intersection1(intersection(S1, S2), Ss);
intersection([S]) -> S.
intersection1(S1, [S2|Ss]) -> intersection1(intersection(S1, S2), Ss);
intersection1(S1, []) -> S1.
is_disjoint([E1|Es1], [E2|_]=Set2) when E1 < E2 -> is_disjoint(Es1, Set2);
is_disjoint([E1|_]=Set1, [E2|Es2]) when E1 > E2 -> is_disjoint(Es2, Set1);
is_disjoint([_E1|_Es1], [_E2|_Es2]) -> false;
is_disjoint([], _) -> true;
is_disjoint(_, []) -> true.
subtract([E1|Es1], [E2|_]=Set2) when E1 < E2 -> [E1|subtract(Es1, Set2)];
subtract([E1|_]=Set1, [E2|Es2]) when E1 > E2 -> subtract(Set1, Es2);
subtract([_E1|Es1], [_E2|Es2]) -> subtract(Es1, Es2);
subtract([], _) -> [];
subtract(Es1, []) -> Es1.
is_subset([E1|_], [E2|_]) when E1 < E2 -> false;
is_subset([E1|_]=Set1, [E2|Es2]) when E1 > E2 -> is_subset(Set1, Es2);
is_subset([_E1|Es1], [_E2|Es2]) -> is_subset(Es1, Es2);
is_subset([], _) -> true;
is_subset(_, []) -> false.
fold(F, Acc, Set) -> lists:foldl(F, Acc, Set).
filter(F, Set) -> lists:filter(F, Set).
map(F, Set) -> lists:usort(lists:map(F, Set)).
