%% Checks: mnesia:transaction with read/write/delete, {atomic,V}, abort via mnesia:abort -> {aborted,R}, crash inside -> {aborted,{R,_}}.
-module(mnesia_transaction).
-export([main/0]).

-record(account, {id, balance = 0}).

transfer(From, To, Amount) ->
    mnesia:transaction(fun() ->
        [#account{balance = FB} = F] = mnesia:read(account, From),
        [#account{balance = TB} = T] = mnesia:read(account, To),
        if FB < Amount -> mnesia:abort(insufficient_funds);
           true -> ok
        end,
        ok = mnesia:write(F#account{balance = FB - Amount}),
        ok = mnesia:write(T#account{balance = TB + Amount}),
        {FB - Amount, TB + Amount}
    end).

balances() ->
    lists:sort([{I, B} || #account{id = I, balance = B} <- mnesia:dirty_match_object(#account{_ = '_'})]).

main() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(account, [{attributes, record_info(fields, account)}]),
    {atomic, ok} = mnesia:transaction(fun() ->
        [mnesia:write(#account{id = I, balance = 100}) || I <- [1, 2, 3]], ok end),
    io:format("~p~n", [balances()]),
    io:format("~p~n", [transfer(1, 2, 30)]),
    io:format("~p~n", [transfer(1, 3, 500)]),
    io:format("~p~n", [balances()]),
    {aborted, {Reason, _}} = transfer(1, 99, 5),
    io:format("crash: ~p~n", [Reason]),
    io:format("~p~n", [mnesia:transaction(fun() -> mnesia:delete({account, 3}) end)]),
    io:format("~p~n", [mnesia:transaction(fun() -> mnesia:read({account, 3}) end)]),
    io:format("~p~n", [balances()]),
    io:format("~p~n", [mnesia:transaction(fun() -> mnesia:write(#account{id = 4}), mnesia:abort(undo) end)]),
    io:format("~p~n", [mnesia:dirty_read(account, 4)]),
    io:format("~p~n", [mnesia:transaction(fun() -> throw(thrown) end)]),
    mnesia:transaction(fun() -> length(mnesia:all_keys(account)) end).
