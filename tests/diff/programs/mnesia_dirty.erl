%% Checks: mnesia start (ram schema), create_table with attributes, dirty_write/read/delete, dirty_update_counter, dirty_match_object, dirty_all_keys.
-module(mnesia_dirty).
-export([main/0]).

main() ->
    ok = mnesia:start(),
    io:format("~p~n", [mnesia:create_table(kv, [{attributes, [key, val]}])]),
    io:format("~p~n", [mnesia:dirty_write({kv, a, 1})]),
    mnesia:dirty_write({kv, b, 2}),
    mnesia:dirty_write({kv, c, 2}),
    io:format("~p~n", [mnesia:dirty_read(kv, a)]),
    io:format("~p~n", [mnesia:dirty_read({kv, zz})]),
    mnesia:dirty_write({kv, a, 10}),
    io:format("~p~n", [mnesia:dirty_read(kv, a)]),
    io:format("~p~n", [lists:sort(mnesia:dirty_match_object({kv, '_', 2}))]),
    io:format("~p~n", [lists:sort(mnesia:dirty_all_keys(kv))]),
    io:format("~p~n", [mnesia:dirty_delete(kv, b)]),
    io:format("~p~n", [mnesia:dirty_read(kv, b)]),
    io:format("~p~n", [mnesia:create_table(counters, [{attributes, [name, count]}])]),
    io:format("~p~n", [mnesia:dirty_update_counter(counters, visits, 1)]),
    io:format("~p~n", [mnesia:dirty_update_counter(counters, visits, 5)]),
    io:format("~p~n", [mnesia:dirty_update_counter({counters, visits}, -2)]),
    io:format("~p~n", [mnesia:dirty_read(counters, visits)]),
    io:format("~p~n", [mnesia:table_info(kv, size)]),
    io:format("~p~n", [mnesia:table_info(kv, attributes)]),
    io:format("~p~n", [mnesia:create_table(kv, [{attributes, [key, val]}])]),
    E = try mnesia:dirty_read(no_such_tab, x) catch exit:R -> R end,
    io:format("~p~n", [E]),
    mnesia:dirty_select(kv, [{{kv, '$1', '$2'}, [{'>', '$2', 5}], ['$1']}]).
