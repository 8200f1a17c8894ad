%% Checks: walking an ordered_set mnesia table with dirty_first/dirty_next and dirty_last/dirty_prev; '$end_of_table'; keys after deletes.
-module(mnesia_traverse).
-export([main/0]).

walk(_, '$end_of_table', _, Acc) -> lists:reverse(Acc);
walk(T, K, Step, Acc) -> walk(T, mnesia:Step(T, K), Step, [K | Acc]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(seq, [{type, ordered_set}, {attributes, [k, v]}]),
    [mnesia:dirty_write({seq, K, K * K}) || K <- [5, 3, 9, 1, 7]],
    io:format("~p~n", [walk(seq, mnesia:dirty_first(seq), dirty_next, [])]),
    io:format("~p~n", [walk(seq, mnesia:dirty_last(seq), dirty_prev, [])]),
    mnesia:dirty_delete(seq, 5),
    io:format("~p~n", [mnesia:dirty_next(seq, 3)]),
    io:format("~p~n", [mnesia:dirty_next(seq, 9)]),
    {atomic, Keys} = mnesia:transaction(fun() -> mnesia:all_keys(seq) end),
    io:format("~p~n", [Keys]),
    {atomic, ok} = mnesia:create_table(empty, [{type, ordered_set}, {attributes, [k, v]}]),
    io:format("~p~n", [mnesia:dirty_first(empty)]),
    mnesia:dirty_read(seq, 9).
