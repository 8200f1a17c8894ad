%% Checks: concurrent mnesia transactions incrementing one counter serialize correctly (final value deterministic), dirty reads after.
-module(mnesia_concurrent).
-export([main/0]).

bump() ->
    mnesia:transaction(fun() ->
        [{ctr, k, V}] = mnesia:read(ctr, k, write),
        mnesia:write({ctr, k, V + 1})
    end).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(ctr, [{attributes, [key, val]}]),
    ok = mnesia:dirty_write({ctr, k, 0}),
    Self = self(),
    N = 8, Per = 25,
    [spawn(fun() ->
                   Rs = [bump() || _ <- lists:seq(1, Per)],
                   Self ! {done, lists:usort(Rs)}
           end) || _ <- lists:seq(1, N)],
    Results = [receive {done, R} -> R end || _ <- lists:seq(1, N)],
    io:format("~p~n", [lists:usort(lists:append(Results))]),
    io:format("~p~n", [mnesia:dirty_read(ctr, k)]),
    {atomic, V} = mnesia:transaction(fun() -> [{ctr, k, X}] = mnesia:read({ctr, k}), X end),
    V.
