%% Wallet balances in mnesia, updated with dirty operations for speed.
%% deposit/2 reads the balance and writes balance + amount: two deposits to
%% one wallet can read the same balance and one of them is lost.
%% Expected: R003 confirmed, non_serializable, bound 1.
-module(account_dirty).
-export([setup/0, deposit/2, balance/1, teardown/0, test/0]).

-record(wallet, {id, balance = 0}).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(wallet, [{attributes, record_info(fields, wallet)}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, wallet}} -> ok
    end,
    ok = mnesia:wait_for_tables([wallet], 5000).

teardown() ->
    mnesia:stop().

deposit(Id, Amount) when is_integer(Amount), Amount > 0 ->
    Old = case mnesia:dirty_read(wallet, Id) of
%%             ^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia wallet/<Id> (confirmed, non_serializable)
              [#wallet{balance = B}] -> B;
              [] -> 0
          end,
    ok = mnesia:dirty_write(#wallet{id = Id, balance = Old + Amount}),
%%       ^^^^^^^^^^^^^^^^^^ R003 #1 write: a concurrent deposit is overwritten
    Old + Amount.

balance(Id) ->
    case mnesia:dirty_read(wallet, Id) of
        [#wallet{balance = B}] -> B;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), deposit(w1, A)} end) || A <- [10, 20]],
    [receive {P, _} -> ok end || P <- Pids],
    B = balance(w1),
    teardown(),
    B.
