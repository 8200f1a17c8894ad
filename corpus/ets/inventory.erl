%% Order-side half of the inventory pair: reserve/2 checks the stock with a
%% direct ETS read (fast path, no server) and writes the decremented amount
%% through inventory_store:set_stock/2.  Two orders for the last items both
%% succeed and the stock count is wrong.
%% Expected: R002 confirmed, non_serializable, bound 1.
-module(inventory).
-export([setup/0, teardown/0, reserve/2, available/1, test/0]).

setup() ->
    inventory_store:setup(),
    inventory_store:set_stock(widget, 10),
    ok.

teardown() ->
    inventory_store:teardown().

available(Sku) ->
    case ets:lookup(stock, Sku) of
%%       ^^^^^^^^^^ R002 #1 read: ets stock/<Sku> (confirmed, non_serializable)
        [{Sku, Qty}] -> Qty;
        [] -> 0
    end.

reserve(Sku, Wanted) when is_integer(Wanted), Wanted > 0 ->
    Have = available(Sku),
    if
        Have >= Wanted ->
            inventory_store:set_stock(Sku, Have - Wanted),
            {ok, Wanted};
        true ->
            {error, {only, Have}}
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), reserve(widget, 2)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> R end || P <- Pids],
    Left = available(widget),
    teardown(),
    {Results, Left}.
