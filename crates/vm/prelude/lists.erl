%% racewit prelude: the higher-order functions of OTP's lists module
%% (the others are Rust BIFs). Same clauses and errors as OTP's lists.erl.
-module(lists).
-export([map/2, foldl/3, foldr/3, filter/2, foreach/2, any/2, all/2,
         flatmap/2, mapfoldl/3, mapfoldr/3, sort/2, usort/2, keymap/3,
         partition/2, takewhile/2, dropwhile/2, splitwith/2, filtermap/2,
         zipwith/3, zipwith3/4, search/2, uniq/1, uniq/2, foldl_1/3,
         merge/3, umerge/3, join/2, split_at_fun/2, min_by/2,
         sort/1, usort/1, keysort/2, ukeysort/2, merge/2, umerge/2, merge/1, umerge/1]).

%% Without an installed OTP (whose lists.erl is preferred), these stand in:
%% stable sorts on the standard term order.
sort(L) -> sort(fun(A, B) -> A =< B end, L).
usort(L) -> usort(fun(A, B) -> A =< B end, L).
keysort(N, L) -> sort(fun(A, B) -> element(N, A) =< element(N, B) end, L).
ukeysort(N, L) -> usort(fun(A, B) -> element(N, A) =< element(N, B) end, L).
merge(A, B) -> sort(A ++ B).
umerge(A, B) -> usort(A ++ B).
merge(Ls) -> sort(lists:append(Ls)).
umerge(Ls) -> usort(lists:append(Ls)).

%% As OTP's: the fun is checked first (function_clause for anything but a
%% fun of the right arity, whatever the list), then the list's first cell
%% ({case_clause, L} when it is no list), then the rest (function_clause at
%% an improper tail).
map(F, List) when is_function(F, 1) ->
    case List of
        [Hd|Tail] -> [F(Hd)|map_1(F, Tail)];
        [] -> []
    end.

map_1(F, [Hd|Tail]) -> [F(Hd)|map_1(F, Tail)];
map_1(_F, []) -> [].

foldl(F, Accu, List) when is_function(F, 2) ->
    case List of
        [Hd|Tail] -> foldl_1(F, F(Hd, Accu), Tail);
        [] -> Accu
    end.

foldl_1(F, Accu, [Hd|Tail]) -> foldl_1(F, F(Hd, Accu), Tail);
foldl_1(_F, Accu, []) -> Accu.

foldr(F, Accu, [Hd|Tail]) -> F(Hd, foldr(F, Accu, Tail));
foldr(F, Accu, []) when is_function(F, 2) -> Accu.

filter(Pred, List) when is_function(Pred, 1) ->
    [ E || E <- List, Pred(E) ].

foreach(F, [Hd|Tail]) -> F(Hd), foreach(F, Tail);
foreach(F, []) when is_function(F, 1) -> ok.

any(Pred, List) when is_function(Pred, 1) -> any_1(Pred, List).
any_1(Pred, [Hd|Tail]) ->
    case Pred(Hd) of
        true -> true;
        false -> any_1(Pred, Tail)
    end;
any_1(_Pred, []) -> false.

all(Pred, List) when is_function(Pred, 1) -> all_1(Pred, List).
all_1(Pred, [Hd|Tail]) ->
    case Pred(Hd) of
        true -> all_1(Pred, Tail);
        false -> false
    end;
all_1(_Pred, []) -> true.

flatmap(F, [Hd|Tail]) -> F(Hd) ++ flatmap(F, Tail);
flatmap(F, []) when is_function(F, 1) -> [].

mapfoldl(F, Accu0, [Hd|Tail]) ->
    {R, Accu1} = F(Hd, Accu0),
    {Rs, Accu2} = mapfoldl(F, Accu1, Tail),
    {[R|Rs], Accu2};
mapfoldl(F, Accu, []) when is_function(F, 2) -> {[], Accu}.

mapfoldr(F, Accu0, [Hd|Tail]) ->
    {Rs, Accu1} = mapfoldr(F, Accu0, Tail),
    {R, Accu2} = F(Hd, Accu1),
    {[R|Rs], Accu2};
mapfoldr(F, Accu, []) when is_function(F, 2) -> {[], Accu}.

%% Stable merge sort with an ordering fun (true when A comes first or equal).
sort(Fun, List) when is_function(Fun, 2) ->
    msort(Fun, List).

msort(_Fun, []) -> [];
msort(_Fun, [X]) -> [X];
msort(Fun, List) ->
    {A, B} = halve(List, length(List) div 2, []),
    merge_by(Fun, msort(Fun, A), msort(Fun, B)).

halve(L, 0, Acc) -> {reverse(Acc), L};
halve([H|T], N, Acc) -> halve(T, N - 1, [H|Acc]).

reverse(L) -> lists:reverse(L).

merge_by(Fun, A, B) -> merge_by(Fun, A, B, []).
merge_by(_Fun, [], B, Acc) -> reverse(Acc, B);
merge_by(_Fun, A, [], Acc) -> reverse(Acc, A);
merge_by(Fun, [X|Xs] = A, [Y|Ys] = B, Acc) ->
    case Fun(X, Y) of
        true -> merge_by(Fun, Xs, B, [X|Acc]);
        false -> merge_by(Fun, A, Ys, [Y|Acc])
    end.

reverse(Acc, Tail) -> lists:reverse(Acc, Tail).

usort(Fun, List) when is_function(Fun, 2) ->
    dedup(Fun, sort(Fun, List)).

dedup(_Fun, []) -> [];
dedup(Fun, [X|Rest]) -> [X|dedup(Fun, X, Rest)].
dedup(Fun, Prev, [X|Rest]) ->
    case Fun(Prev, X) andalso Fun(X, Prev) of
        true -> dedup(Fun, Prev, Rest);
        false -> [X|dedup(Fun, X, Rest)]
    end;
dedup(_Fun, _Prev, []) -> [].

merge(Fun, A, B) when is_function(Fun, 2) -> merge_by(Fun, A, B).
umerge(Fun, A, B) when is_function(Fun, 2) -> dedup(Fun, merge_by(Fun, A, B)).

keymap(Fun, Index, [Tup|Tail]) ->
    [setelement(Index, Tup, Fun(element(Index, Tup)))|keymap(Fun, Index, Tail)];
keymap(Fun, Index, []) when is_integer(Index), Index >= 1, is_function(Fun, 1) -> [].

partition(Pred, L) -> partition(Pred, L, [], []).
partition(Pred, [H | T], As, Bs) ->
    case Pred(H) of
        true -> partition(Pred, T, [H | As], Bs);
        false -> partition(Pred, T, As, [H | Bs])
    end;
partition(Pred, [], As, Bs) when is_function(Pred, 1) ->
    {reverse(As), reverse(Bs)}.

takewhile(Pred, [Hd|Tail]) ->
    case Pred(Hd) of
        true -> [Hd|takewhile(Pred, Tail)];
        false -> []
    end;
takewhile(Pred, []) when is_function(Pred, 1) -> [].

dropwhile(Pred, [Hd|Tail]=Rest) ->
    case Pred(Hd) of
        true -> dropwhile(Pred, Tail);
        false -> Rest
    end;
dropwhile(Pred, []) when is_function(Pred, 1) -> [].

splitwith(Pred, List) when is_function(Pred, 1) -> splitwith(Pred, List, []).
splitwith(Pred, [Hd|Tail], Taken) ->
    case Pred(Hd) of
        true -> splitwith(Pred, Tail, [Hd|Taken]);
        false -> {reverse(Taken), [Hd|Tail]}
    end;
splitwith(Pred, [], Taken) when is_function(Pred, 1) -> {reverse(Taken), []}.

split_at_fun(Pred, List) -> splitwith(Pred, List).

filtermap(F, [Hd|Tail]) ->
    case F(Hd) of
        true -> [Hd|filtermap(F, Tail)];
        {true,Val} -> [Val|filtermap(F, Tail)];
        false -> filtermap(F, Tail)
    end;
filtermap(F, []) when is_function(F, 1) -> [].

zipwith(F, [X | Xs], [Y | Ys]) -> [F(X, Y) | zipwith(F, Xs, Ys)];
zipwith(F, [], []) when is_function(F, 2) -> [].

zipwith3(F, [X | Xs], [Y | Ys], [Z | Zs]) -> [F(X, Y, Z) | zipwith3(F, Xs, Ys, Zs)];
zipwith3(F, [], [], []) when is_function(F, 3) -> [].

search(Pred, [Hd|Tail]) ->
    case Pred(Hd) of
        true -> {value, Hd};
        false -> search(Pred, Tail)
    end;
search(Pred, []) when is_function(Pred, 1) -> false.

uniq(L) -> uniq_1(L, #{}).
uniq_1([X | Xs], M) ->
    case is_map_key(X, M) of
        true -> uniq_1(Xs, M);
        false -> [X | uniq_1(Xs, M#{X => true})]
    end;
uniq_1([], _) -> [].

uniq(F, L) when is_function(F, 1) -> uniq_2(L, F, #{}).
uniq_2([X | Xs], F, M) ->
    Key = F(X),
    case is_map_key(Key, M) of
        true -> uniq_2(Xs, F, M);
        false -> [X | uniq_2(Xs, F, M#{Key => true})]
    end;
uniq_2([], _, _) -> [].

join(_Sep, []) -> [];
join(Sep, [H|T]) -> [H|join_prepend(Sep, T)].
join_prepend(_Sep, []) -> [];
join_prepend(Sep, [H|T]) -> [Sep,H|join_prepend(Sep, T)].

min_by(_F, L) -> lists:min(L).
