%% The same wallet deposit as account_dirty, done inside mnesia:transaction/1
%% with a write lock taken by the read: concurrent deposits are serialized.
%% The read and write calls are transactional, not dirty.
%% Expected: filtered (no dirty access; the transaction makes it atomic).
-module(account_tx_ok).
-export([setup/0, deposit/2, balance/1, teardown/0, test/0]).

-record(purse, {id, balance = 0}).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(purse, [{attributes, record_info(fields, purse)}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, purse}} -> ok
    end,
    ok = mnesia:wait_for_tables([purse], 5000).

teardown() ->
    mnesia:stop().

deposit(Id, Amount) when is_integer(Amount), Amount > 0 ->
    F = fun() ->
                Old = case mnesia:read(purse, Id, write) of
%%                         ^^^^^^^^^^^ R003 #1 read (filtered): transactional read with a write lock
                          [#purse{balance = B}] -> B;
                          [] -> 0
                      end,
                ok = mnesia:write(#purse{id = Id, balance = Old + Amount}),
%%                   ^^^^^^^^^^^^ R003 #1 write (filtered): same transaction
                Old + Amount
        end,
    {atomic, New} = mnesia:transaction(F),
    New.

balance(Id) ->
    case mnesia:dirty_read(purse, Id) of
        [#purse{balance = B}] -> B;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), deposit(p1, A)} end) || A <- [10, 20]],
    [receive {P, _} -> ok end || P <- Pids],
    B = balance(p1),
    teardown(),
    B.
