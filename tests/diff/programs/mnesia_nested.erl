%% Checks: nested transactions see outer writes; an inner abort propagates; mnesia:is_transaction; activity/2 with transaction and async_dirty.
-module(mnesia_nested).
-export([main/0]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(cfg, [{attributes, [key, val]}]),
    io:format("~p~n", [mnesia:is_transaction()]),
    R = mnesia:transaction(fun() ->
        mnesia:write({cfg, a, 1}),
        Inner = mnesia:transaction(fun() ->
            [{cfg, a, V}] = mnesia:read(cfg, a),
            mnesia:write({cfg, b, V + 1}),
            mnesia:is_transaction()
        end),
        {Inner, mnesia:read(cfg, b)}
    end),
    io:format("~p~n", [R]),
    R2 = mnesia:transaction(fun() ->
        mnesia:write({cfg, c, 3}),
        mnesia:transaction(fun() -> mnesia:abort(inner_abort) end)
    end),
    io:format("~p~n", [R2]),
    io:format("~p~n", [mnesia:dirty_read(cfg, c)]),
    io:format("~p~n", [mnesia:activity(transaction, fun() -> mnesia:write({cfg, d, 4}), done end)]),
    io:format("~p~n", [mnesia:activity(async_dirty, fun() -> mnesia:read(cfg, d) end)]),
    io:format("~p~n", [mnesia:sync_transaction(fun() -> mnesia:delete({cfg, d}) end)]),
    E = try mnesia:activity(transaction, fun() -> mnesia:abort(via_activity) end) catch exit:X -> X end,
    io:format("~p~n", [E]),
    lists:sort(mnesia:dirty_all_keys(cfg)).
