%% Shopping carts stored as maps in ETS: add/2 reads the cart and writes
%% back a map update with the item counted once more.  The write depends
%% on the read through the map update.
%% Expected: R002 confirmed, non_serializable (one of two adds is lost).
-module(cart_map_item).
-export([setup/0, teardown/0, add/2, count/2, test/0]).

setup() ->
    ets:new(carts, [named_table, public]),
    ets:insert(carts, {c1, #{}}),
    ok.

teardown() ->
    ets:delete(carts),
    ok.

add(Cart, Item) ->
    [{Cart, Items}] = ets:lookup(carts, Cart),
%%                    ^^^^^^^^^^ R002 #1 read: ets carts/<Cart> (confirmed)
    N = maps:get(Item, Items, 0),
    ets:insert(carts, {Cart, Items#{Item => N + 1}}).
%%  ^^^^^^^^^^ R002 #1 write: a map update of the stale cart

count(Cart, Item) ->
    maps:get(Item, ets:lookup_element(carts, Cart, 2), 0).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> add(c1, pen), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    N = count(c1, pen),
    teardown(),
    N.
