%% A ledger kept by a hand-written server loop: start/0 registers the loop
%% under one name, the loop waits for requests and is the only code that
%% writes the (public) balances table.  Credits are serialised by its mailbox.
%% Expected: R002 filtered (read and write only in the one registered loop).
-module(ledger_loop_ok).
-export([start/0, stop/0, credit/2, balance/1, test/0]).

start() ->
    ets:new(balances, [named_table, public]),
    ets:insert(balances, {acct, 0}),
    register(ledger, spawn(fun loop/0)),
    ok.

stop() ->
    ledger ! stop,
    ets:delete(balances),
    ok.

credit(Acct, Amount) ->
    ledger ! {credit, self(), Acct, Amount},
    receive {ledger, Reply} -> Reply end.

balance(Acct) ->
    ets:lookup_element(balances, Acct, 2).

loop() ->
    receive
        {credit, From, Acct, Amount} ->
            [{Acct, B}] = ets:lookup(balances, Acct),
%%                        ^^^^^^^^^^ R002 #1 read: ets balances/<Acct>, only in the ledger loop (filtered)
            ets:insert(balances, {Acct, B + Amount}),
%%          ^^^^^^^^^^ R002 #1 write: serialised by the loop's mailbox
            From ! {ledger, ok},
            loop();
        stop ->
            ok
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> credit(acct, 5), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    B = balance(acct),
    stop(),
    B.
