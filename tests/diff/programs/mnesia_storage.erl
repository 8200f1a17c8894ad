%% Checks: mnesia:table_info/2 storage_type and copy lists for tables made with and without copies named, and for a table with local content.
-module(mnesia_storage).
-export([main/0]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(plain, []),
    {atomic, ok} = mnesia:create_table(ram, [{ram_copies, [node()]}, {type, bag}]),
    {atomic, ok} = mnesia:create_table(local, [{local_content, true}, {ram_copies, [node()]},
                                               {attributes, [key, data]}]),
    [io:format("~p ~p ~p ~p~n", [T, mnesia:table_info(T, storage_type),
                                 mnesia:table_info(T, ram_copies),
                                 mnesia:table_info(T, disc_copies)])
     || T <- [plain, ram, local]],
    io:format("~p~n", [lists:member(local, mnesia:system_info(tables))]),
    io:format("~p~n", [catch mnesia:table_info(nope, storage_type)]),
    mnesia:table_info(local, type).
