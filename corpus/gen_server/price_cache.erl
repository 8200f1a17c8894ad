%% A price cache: readers hit the protected ETS table directly (no call), and
%% updates go through the owning gen_server.  apply_discount/2 reads the price
%% in the client and sends the discounted price to the server, so two
%% discounts applied together keep only one of them.
%% Expected: R002 confirmed, non_serializable, bound 1.
-module(price_cache).
-behaviour(gen_server).
-export([setup/0, start/0, stop/0, price/1, set_price/2, apply_discount/2, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(TAB, prices).

start() ->
    {ok, _} = gen_server:start({local, price_cache}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(price_cache).

%% Starts the cache with one catalogue entry (fixture for concurrent runs).
setup() ->
    start(),
    ok = set_price(lamp, 1000).

price(Sku) ->
    case ets:lookup(?TAB, Sku) of
%%       ^^^^^^^^^^ R002 #1 read: ets prices/<Sku>, in the client process (confirmed)
        [{Sku, P}] -> P;
        [] -> undefined
    end.

set_price(Sku, Price) when is_integer(Price) ->
    gen_server:call(price_cache, {set, Sku, Price}).

apply_discount(Sku, Percent) when Percent > 0, Percent < 100 ->
    case price(Sku) of
        undefined -> {error, no_price};
        P -> set_price(Sku, P * (100 - Percent) div 100)
    end.

init([]) ->
    ets:new(?TAB, [named_table, protected, {read_concurrency, true}]),
    {ok, no_state}.

handle_call({set, Sku, Price}, _From, State) ->
    ets:insert(?TAB, {Sku, Price}),
%%  ^^^^^^^^^^ R002 #1 write: the server stores a price computed from a stale read
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), apply_discount(lamp, D)} end) || D <- [10, 50]],
    [receive {P, ok} -> ok end || P <- Pids],
    Final = price(lamp),
    stop(),
    Final.
