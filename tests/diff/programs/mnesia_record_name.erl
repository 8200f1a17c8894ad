%% Checks: create_table with record_name different from table name, type bag and ordered_set, match_object inside transaction, index_read.
-module(mnesia_record_name).
-export([main/0]).

-record(item, {sku, name, tag}).

main() ->
    ok = mnesia:start(),
    io:format("~p~n", [mnesia:create_table(inventory, [{record_name, item}, {attributes, record_info(fields, item)},
                                                      {type, ordered_set}, {index, [tag]}])]),
    W = fun(I) -> mnesia:write(inventory, I, write) end,
    {atomic, _} = mnesia:transaction(fun() ->
        W(#item{sku = 3, name = "bolt", tag = metal}),
        W(#item{sku = 1, name = "nut", tag = metal}),
        W(#item{sku = 2, name = "glue", tag = liquid})
    end),
    io:format("~p~n", [mnesia:dirty_read(inventory, 1)]),
    {atomic, Metal} = mnesia:transaction(fun() -> mnesia:match_object(inventory, #item{tag = metal, _ = '_'}, read) end),
    io:format("~p~n", [lists:sort(Metal)]),
    io:format("~p~n", [lists:sort(mnesia:dirty_index_read(inventory, liquid, #item.tag))]),
    io:format("~p~n", [mnesia:dirty_first(inventory)]),
    io:format("~p~n", [mnesia:dirty_next(inventory, 1)]),
    io:format("~p~n", [mnesia:dirty_last(inventory)]),
    io:format("~p~n", [mnesia:table_info(inventory, record_name)]),
    {atomic, ok} = mnesia:create_table(tags, [{type, bag}, {attributes, [owner, tag]}]),
    [mnesia:dirty_write({tags, o, T}) || T <- [x, y, x, z]],
    io:format("~p~n", [lists:sort(mnesia:dirty_read(tags, o))]),
    mnesia:dirty_delete_object({tags, o, y}),
    io:format("~p~n", [lists:sort(mnesia:dirty_read(tags, o))]),
    io:format("~p~n", [mnesia:table_info(tags, type)]),
    mnesia:transaction(fun() -> mnesia:foldl(fun(#item{sku = S}, Acc) -> Acc + S end, 0, inventory) end).
