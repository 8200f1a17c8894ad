%% Price updates as compare-and-swap: raise/2 reads the price, then swaps
%% in the new one with select_replace/2 only if the old one is still there,
%% and retries when it is not.  No update is lost.
%% Expected: R002 unconfirmed: the pair is reported (the write follows the
%% read), the VM has no select_replace/2 to run it with.
-module(price_cas_ok).
-export([setup/0, teardown/0, raise/2, price/1, test/0]).

setup() ->
    ets:new(prices, [named_table, public]),
    ets:insert(prices, {apple, 10}),
    ok.

teardown() ->
    ets:delete(prices),
    ok.

raise(Item, By) ->
    [{Item, Old}] = ets:lookup(prices, Item),
%%                  ^^^^^^^^^^ R002 #1 read: ets prices/<Item> (unconfirmed: unsupported)
    Spec = [{{Item, Old}, [], [{{Item, Old + By}}]}],
    case ets:select_replace(prices, Spec) of
%%       ^^^^^^^^^^^^^^^^^^ R002 #1 write: only if the price is still Old
        1 -> ok;
        0 -> raise(Item, By)
    end.

price(Item) ->
    ets:lookup_element(prices, Item, 2).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> raise(apple, 1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    P = price(apple),
    teardown(),
    P.
