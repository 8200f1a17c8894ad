%% Checks: an aborted transaction undoes all its writes and deletes; a crashed transaction too; dirty reads afterwards show the old state.
-module(mnesia_abort_restore).
-export([main/0]).

snapshot() -> lists:sort(mnesia:dirty_match_object({stock, '_', '_'})).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(stock, [{attributes, [item, qty]}]),
    [mnesia:dirty_write({stock, I, Q}) || {I, Q} <- [{apple, 5}, {pear, 2}, {plum, 0}]],
    io:format("~p~n", [snapshot()]),
    R1 = mnesia:transaction(fun() ->
        mnesia:write({stock, apple, 4}),
        mnesia:delete({stock, pear}),
        mnesia:write({stock, kiwi, 9}),
        mnesia:abort(changed_my_mind)
    end),
    io:format("~p~n", [R1]),
    io:format("~p~n", [snapshot()]),
    {aborted, {Reason, _}} = mnesia:transaction(fun() ->
        mnesia:write({stock, plum, 100}),
        [_] = mnesia:read(stock, nothing_here)
    end),
    io:format("~p~n", [Reason]),
    io:format("~p~n", [snapshot()]),
    Take = fun(Item, N) ->
        mnesia:transaction(fun() ->
            case mnesia:read(stock, Item) of
                [{stock, Item, Q}] when Q >= N -> mnesia:write({stock, Item, Q - N}), {took, N};
                [{stock, Item, Q}] -> mnesia:abort({only, Q});
                [] -> mnesia:abort(no_such_item)
            end
        end)
    end,
    io:format("~p~n", [[Take(apple, 3), Take(apple, 3), Take(plum, 1), Take(fig, 1)]]),
    snapshot().
