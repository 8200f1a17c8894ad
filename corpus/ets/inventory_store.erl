%% Storage half of the inventory pair: owns the public `stock` table and the
%% write API.  inventory:reserve/2 (the other module) reads the table directly
%% and writes through set_stock/2, so the suspect spans both files.
%% Expected: R002 confirmed, non_serializable, bound 1 (entry inventory:reserve/2).
-module(inventory_store).
-export([setup/0, set_stock/2, teardown/0, test/0]).

-define(TAB, stock).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

set_stock(Sku, Qty) when is_integer(Qty), Qty >= 0 ->
    ets:insert(?TAB, {Sku, Qty}).
%%  ^^^^^^^^^^ R002 #1 write: ets stock/<Sku>, called from inventory:reserve/2

test() ->
    setup(),
    set_stock(widget, 3),
    Qty = ets:lookup_element(?TAB, widget, 2),
    teardown(),
    Qty.
