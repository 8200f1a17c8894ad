%% Checks: mnesia:del_table_copy/2 on the one node there is (this node's last copy: the table goes), of a table with no copy here, of a missing table, with a node that is no atom; mnesia:create_table/2 with a name that is no atom.
-module(mnesia_table_copies).
-export([main/0]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(stamps, [{attributes, [key, data]}]),
    ok = mnesia:dirty_write({stamps, ref_count, 2}),
    io:format("~p~n", [mnesia:del_table_copy(stamps, node())]),
    io:format("~p~n", [lists:member(stamps, mnesia:system_info(tables))]),
    io:format("~p~n", [catch mnesia:dirty_read({stamps, ref_count})]),
    io:format("~p~n", [mnesia:del_table_copy(stamps, node())]),
    io:format("~p~n", [mnesia:del_table_copy(nope, other@host)]),
    io:format("~p~n", [mnesia:del_table_copy(42, node())]),
    {atomic, ok} = mnesia:create_table(here, []),
    io:format("~p~n", [mnesia:del_table_copy(here, other@host)]),
    io:format("~p~n", [mnesia:del_table_copy(here, "node")]),
    {atomic, ok} = mnesia:create_table(away, [{ram_copies, [other@host]}]),
    io:format("~p~n", [mnesia:del_table_copy(away, node())]),
    io:format("~p~n", [mnesia:create_table(1, [])]),
    io:format("~p~n", [mnesia:create_table("named", [{attributes, [a, b]}])]),
    io:format("~p~n", [[lists:member(T, mnesia:system_info(tables)) || T <- [here, away, 1]]]),
    mnesia:create_table(stamps, []).
