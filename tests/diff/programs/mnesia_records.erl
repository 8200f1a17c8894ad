%% Checks: mnesia with records: write/read whole records, dirty_match_object on a partial record, mnesia:foldl in a transaction, wild_pattern.
-module(mnesia_records).
-export([main/0]).

-record(book, {isbn, title, year, tags = []}).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(book, [{attributes, record_info(fields, book)}, {type, ordered_set}]),
    Books = [#book{isbn = 3, title = "C", year = 1999, tags = [old]},
             #book{isbn = 1, title = "A", year = 2020},
             #book{isbn = 2, title = "B", year = 1999, tags = [classic]}],
    {atomic, ok} = mnesia:transaction(fun() -> [mnesia:write(B) || B <- Books], ok end),
    io:format("~p~n", [mnesia:dirty_read(book, 2)]),
    io:format("~p~n", [mnesia:dirty_match_object(#book{year = 1999, _ = '_'})]),
    io:format("~p~n", [mnesia:table_info(book, wild_pattern)]),
    {atomic, Titles} = mnesia:transaction(fun() ->
        mnesia:foldl(fun(#book{title = T}, Acc) -> [T | Acc] end, [], book)
    end),
    io:format("~p~n", [lists:sort(Titles)]),
    {atomic, ok} = mnesia:transaction(fun() ->
        [B] = mnesia:wread({book, 1}),
        mnesia:write(B#book{tags = [new]})
    end),
    io:format("~p~n", [mnesia:dirty_read(book, 1)]),
    io:format("~p~n", [mnesia:dirty_all_keys(book)]),
    mnesia:table_info(book, attributes).
