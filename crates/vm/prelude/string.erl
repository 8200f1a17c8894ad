%% racewit prelude: common string functions (the classic list API and the
%% most used parts of the unicode API, for flat strings and binaries).
-module(string).
-export([len/1, length/1, concat/2, chr/2, rchr/2, str/2, rstr/2, substr/2, substr/3,
         sub_string/2, sub_string/3, tokens/2, join/2, copies/2, chars/2, chars/3,
         to_upper/1, to_lower/1, uppercase/1, lowercase/1, strip/1, strip/2, strip/3,
         trim/1, trim/2, trim/3, split/2, split/3, lexemes/2, is_empty/1, reverse/1,
         equal/2, slice/2, slice/3, find/2, find/3, replace/3, replace/4, pad/2, pad/3,
         left/2, left/3, right/2, right/3, to_integer/1, to_float/1, words/1, words/2,
         prefix/2, casefold/1, take/2]).

to_list(B) when is_binary(B) -> unicode_chars(B);
to_list(L) when is_list(L) -> lists:flatten(L);
to_list(A) when is_atom(A) -> atom_to_list(A).

unicode_chars(B) -> [C || <<C/utf8>> <= B].

back(Orig, Result) when is_binary(Orig) -> unicode_bin(Result);
back(_, Result) -> Result.

unicode_bin(L) -> << <<C/utf8>> || C <- L >>.

len(S) -> erlang:length(S).
length(S) -> erlang:length(to_list(S)).
concat(A, B) -> A ++ B.
chr(S, C) -> chr(S, C, 1).
chr([C|_], C, I) -> I;
chr([_|T], C, I) -> chr(T, C, I + 1);
chr([], _, _) -> 0.
rchr(S, C) -> rchr(S, C, 1, 0).
rchr([C|T], C, I, _) -> rchr(T, C, I + 1, I);
rchr([_|T], C, I, L) -> rchr(T, C, I + 1, L);
rchr([], _, _, L) -> L.
str(S, Sub) -> str(S, Sub, 1).
str([C|S], [C|Sub], I) ->
    case lists:prefix(Sub, S) of
        true -> I;
        false -> str(S, [C|Sub], I + 1)
    end;
str([_|S], Sub, I) -> str(S, Sub, I + 1);
str([], _, _) -> 0.
rstr(S, Sub) -> rstr(S, Sub, 1, 0).
rstr([_|T] = S, Sub, I, L) ->
    case lists:prefix(Sub, S) of
        true -> rstr(T, Sub, I + 1, I);
        false -> rstr(T, Sub, I + 1, L)
    end;
rstr([], _, _, L) -> L.
substr(S, Start) when is_integer(Start), Start >= 1 -> lists:nthtail(Start - 1, S).
substr(S, Start, Len) -> lists:sublist(substr(S, Start), Len).
sub_string(S, Start) -> substr(S, Start).
sub_string(S, Start, Stop) -> substr(S, Start, Stop - Start + 1).
tokens(S, Seps) -> tokens1(S, Seps, []).
tokens1([C|S], Seps, Toks) ->
    case lists:member(C, Seps) of
        true -> tokens1(S, Seps, Toks);
        false -> tokens2(S, Seps, Toks, [C])
    end;
tokens1([], _Seps, Toks) -> lists:reverse(Toks).
tokens2([C|S], Seps, Toks, Cs) ->
    case lists:member(C, Seps) of
        true -> tokens1(S, Seps, [lists:reverse(Cs)|Toks]);
        false -> tokens2(S, Seps, Toks, [C|Cs])
    end;
tokens2([], _Seps, Toks, Cs) -> lists:reverse([lists:reverse(Cs)|Toks]).
join([], _) -> [];
join([H], _) -> H;
join([H|T], Sep) -> H ++ lists:append([Sep ++ X || X <- T]).
copies(S, N) when is_integer(N), N >= 0 -> lists:append(lists:duplicate(N, S)).
chars(C, N) -> lists:duplicate(N, C).
chars(C, N, Tail) -> lists:duplicate(N, C) ++ Tail.
to_upper(C) when is_integer(C) -> upper(C);
to_upper(S) -> [upper(C) || C <- S].
to_lower(C) when is_integer(C) -> lower(C);
to_lower(S) -> [lower(C) || C <- S].
upper(C) when C >= $a, C =< $z -> C - 32;
upper(C) when C >= 16#E0, C =< 16#FE, C =/= 16#F7 -> C - 32;
upper(C) -> C.
lower(C) when C >= $A, C =< $Z -> C + 32;
lower(C) when C >= 16#C0, C =< 16#DE, C =/= 16#D7 -> C + 32;
lower(C) -> C.
uppercase(S) -> back(S, to_upper(to_list(S))).
lowercase(S) -> back(S, to_lower(to_list(S))).
casefold(S) -> lowercase(S).
strip(S) -> strip(S, both).
strip(S, Dir) -> strip(S, Dir, $\s).
strip(S, left, C) -> strip_left(S, C);
strip(S, right, C) -> lists:reverse(strip_left(lists:reverse(S), C));
strip(S, both, C) -> strip(strip_left(S, C), right, C).
strip_left([C|S], C) -> strip_left(S, C);
strip_left(S, _) -> S.
ws(C) -> lists:member(C, [$\s, $\t, $\n, $\r, $\v, $\f]).
trim(S) -> trim(S, both).
trim(S, Dir) -> back(S, trim_l(to_list(S), Dir, fun ws/1)).
trim(S, Dir, Chars) -> back(S, trim_l(to_list(S), Dir, fun(C) -> lists:member(C, Chars) end)).
trim_l(L, leading, F) -> lists:dropwhile(F, L);
trim_l(L, trailing, F) -> lists:reverse(lists:dropwhile(F, lists:reverse(L)));
trim_l(L, both, F) -> trim_l(trim_l(L, leading, F), trailing, F).
split(S, Pat) -> split(S, Pat, leading).
split(S, Pat, Where) ->
    L = to_list(S), P = to_list(Pat),
    Parts = split_all(L, P, [], []),
    R = case {Where, Parts} of
            {all, _} -> Parts;
            {_, [_]} -> Parts;
            {leading, [H|T]} -> [H, join(T, P)];
            {trailing, _} ->
                Rev = lists:reverse(Parts),
                [join(lists:reverse(tl(Rev)), P), hd(Rev)]
        end,
    [back(S, X) || X <- R].
split_all([], _P, Cur, Acc) -> lists:reverse([lists:reverse(Cur)|Acc]);
split_all(L, P, Cur, Acc) ->
    case P =/= [] andalso lists:prefix(P, L) of
        true -> split_all(lists:nthtail(erlang:length(P), L), P, [], [lists:reverse(Cur)|Acc]);
        false -> split_all(tl(L), P, [hd(L)|Cur], Acc)
    end.
lexemes(S, Seps) -> [back(S, X) || X <- tokens(to_list(S), to_list(Seps))].
words(S) -> erlang:length(tokens(S, " ")).
words(S, C) -> erlang:length(tokens(S, [C])).
is_empty(S) -> to_list(S) =:= [].
reverse(S) -> lists:reverse(to_list(S)).
equal(A, B) -> to_list(A) =:= to_list(B).
slice(S, Start) -> back(S, lists:nthtail(min(Start, erlang:length(to_list(S))), to_list(S))).
slice(S, Start, Len) -> back(S, lists:sublist(to_list(slice(to_list(S), Start)), Len)).
find(S, Pat) -> find(S, Pat, leading).
find(S, Pat, _Dir) ->
    L = to_list(S),
    case str(L, to_list(Pat)) of
        0 -> nomatch;
        I -> back(S, lists:nthtail(I - 1, L))
    end.
replace(S, Pat, Rep) -> replace(S, Pat, Rep, leading).
replace(S, Pat, Rep, Where) ->
    Parts = split(to_list(S), to_list(Pat), Where),
    lists:join(Rep, Parts).
pad(S, N) -> pad(S, N, trailing).
pad(S, N, Dir) ->
    L = to_list(S), K = max(0, N - erlang:length(L)),
    case Dir of
        trailing -> [S, lists:duplicate(K, $\s)];
        leading -> [lists:duplicate(K, $\s), S];
        both -> [lists:duplicate(K div 2, $\s), S, lists:duplicate(K - K div 2, $\s)]
    end.
left(S, N) -> left(S, N, $\s).
left(S, N, C) -> L = erlang:length(S), if L >= N -> lists:sublist(S, N); true -> S ++ lists:duplicate(N - L, C) end.
right(S, N) -> right(S, N, $\s).
right(S, N, C) -> L = erlang:length(S), if L >= N -> lists:nthtail(L - N, S); true -> lists:duplicate(N - L, C) ++ S end.
to_integer(S) ->
    L = to_list(S),
    {Digits, Rest} = lists:splitwith(fun(C) -> (C >= $0 andalso C =< $9) orelse C =:= $- orelse C =:= $+ end, L),
    try list_to_integer(Digits) of
        I -> {I, back(S, Rest)}
    catch _:_ -> {error, no_integer}
    end.
to_float(S) ->
    L = to_list(S),
    {Digits, Rest} = lists:splitwith(fun(C) -> (C >= $0 andalso C =< $9) orelse lists:member(C, "-+.eE") end, L),
    try list_to_float(Digits) of
        F -> {F, back(S, Rest)}
    catch _:_ -> {error, no_float}
    end.
prefix(S, Pre) ->
    L = to_list(S), P = to_list(Pre),
    case lists:prefix(P, L) of
        true -> back(S, lists:nthtail(erlang:length(P), L));
        false -> nomatch
    end.
take(S, Chars) ->
    L = to_list(S),
    {A, B} = lists:splitwith(fun(C) -> lists:member(C, Chars) end, L),
    {back(S, A), back(S, B)}.
