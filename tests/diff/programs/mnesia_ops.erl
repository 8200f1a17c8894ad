%% Checks: mnesia clear_table, delete_table, write_lock_table, select in a transaction, index_read, dirty_index_match_object, table_info(type).
-module(mnesia_ops).
-export([main/0]).

-record(emp, {id, name, dept}).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(emp, [{attributes, record_info(fields, emp)}, {index, [dept]}]),
    Emps = [#emp{id = 1, name = ann, dept = eng}, #emp{id = 2, name = bob, dept = ops},
            #emp{id = 3, name = cy, dept = eng}],
    {atomic, ok} = mnesia:transaction(fun() -> lists:foreach(fun mnesia:write/1, Emps) end),
    io:format("~p~n", [mnesia:transaction(fun() -> lists:sort(mnesia:index_read(emp, eng, #emp.dept)) end)]),
    io:format("~p~n", [lists:sort(mnesia:dirty_index_match_object(#emp{dept = ops, _ = '_'}, #emp.dept))]),
    {atomic, Names} = mnesia:transaction(fun() ->
        mnesia:write_lock_table(emp),
        mnesia:select(emp, [{#emp{name = '$1', dept = eng, _ = '_'}, [], ['$1']}])
    end),
    io:format("~p~n", [lists:sort(Names)]),
    io:format("~p~n", [mnesia:table_info(emp, type)]),
    io:format("~p~n", [mnesia:clear_table(emp)]),
    io:format("~p~n", [mnesia:table_info(emp, size)]),
    io:format("~p~n", [mnesia:delete_table(emp)]),
    io:format("~p~n", [mnesia:delete_table(emp)]),
    E = try mnesia:dirty_write(#emp{id = 9}) catch exit:R -> R end,
    io:format("~p~n", [E]),
    mnesia:transaction(fun() -> mnesia:read(emp, 1) end).
