%% Checks: loops as recursion with several accumulators: running stats, run-length encoding, fizzbuzz, binary search, word wrap.
-module(ctl_accumulators).
-export([main/0]).

stats([], N, Sum, Min, Max) -> {N, Sum, Min, Max};
stats([H | T], N, Sum, Min, Max) -> stats(T, N + 1, Sum + H, min(H, Min), max(H, Max)).

rle([]) -> [];
rle([H | T]) -> rle(T, H, 1, []).
rle([], C, N, Acc) -> lists:reverse([{C, N} | Acc]);
rle([C | T], C, N, Acc) -> rle(T, C, N + 1, Acc);
rle([D | T], C, N, Acc) -> rle(T, D, 1, [{C, N} | Acc]).

fizz(N) when N rem 15 =:= 0 -> fizzbuzz;
fizz(N) when N rem 3 =:= 0 -> fizz;
fizz(N) when N rem 5 =:= 0 -> buzz;
fizz(N) -> N.

bsearch(T, X) -> bsearch(T, X, 1, tuple_size(T)).
bsearch(_, _, Lo, Hi) when Lo > Hi -> not_found;
bsearch(T, X, Lo, Hi) ->
    Mid = (Lo + Hi) div 2,
    case element(Mid, T) of
        X -> {found, Mid};
        V when V < X -> bsearch(T, X, Mid + 1, Hi);
        _ -> bsearch(T, X, Lo, Mid - 1)
    end.

wrap(Words, Width) -> wrap(Words, Width, "", []).
wrap([], _, Line, Acc) -> lists:reverse([Line | Acc]);
wrap([W | Ws], Width, "", Acc) -> wrap(Ws, Width, W, Acc);
wrap([W | Ws], Width, Line, Acc) when length(Line) + 1 + length(W) =< Width -> wrap(Ws, Width, Line ++ " " ++ W, Acc);
wrap([W | Ws], Width, Line, Acc) -> wrap(Ws, Width, W, [Line | Acc]).

main() ->
    io:format("~p~n", [stats([4, -2, 9, 0, 7], 0, 0, infinity, -1)]),
    io:format("~p~n", [rle("aaabccddddde")]),
    io:format("~p~n", [[fizz(N) || N <- lists:seq(1, 15)]]),
    T = list_to_tuple(lists:seq(3, 300, 3)),
    io:format("~p~n", [[bsearch(T, X) || X <- [3, 150, 151, 300, 0]]]),
    [io:format("|~s|~n", [L]) || L <- wrap(string:lexemes("the quick brown fox jumps over the lazy dog again", " "), 16)],
    ok.
