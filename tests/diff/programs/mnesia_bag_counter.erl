%% Checks: concurrent dirty_update_counter from many processes (atomic, total deterministic), bag table writes from several processes, sorted reads.
-module(mnesia_bag_counter).
-export([main/0]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(hits, [{attributes, [page, n]}]),
    {atomic, ok} = mnesia:create_table(visits, [{type, bag}, {attributes, [page, who]}]),
    Self = self(),
    Ws = [spawn(fun() ->
                        [mnesia:dirty_update_counter(hits, home, 1) || _ <- lists:seq(1, 50)],
                        mnesia:dirty_write({visits, home, W}),
                        {atomic, ok} = mnesia:transaction(fun() -> mnesia:write({visits, about, W}) end),
                        Self ! done
                end) || W <- lists:seq(1, 6)],
    [receive done -> ok end || _ <- Ws],
    io:format("~p~n", [mnesia:dirty_read(hits, home)]),
    io:format("~p~n", [lists:sort(mnesia:dirty_read(visits, home))]),
    {atomic, About} = mnesia:transaction(fun() -> mnesia:read(visits, about) end),
    io:format("~p~n", [length(About)]),
    io:format("~p~n", [mnesia:table_info(visits, size)]),
    {atomic, ok} = mnesia:transaction(fun() -> mnesia:delete_object({visits, about, 3}) end),
    lists:sort([W || {visits, about, W} <- mnesia:dirty_read(visits, about)]).
