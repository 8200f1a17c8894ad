%% A price cache whose table the server creates in init/1 and keeps in its
%% state; clients ask the server for the table id once, then read and
%% write it themselves.  refresh/1 reads a price and writes it back marked.
%% Expected: R002 confirmed, non_serializable (two refreshes, one lost).
-module(tab_from_server).
-behaviour(gen_server).
-export([start/0, stop/0, table/0, refresh/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

table() ->
    gen_server:call(?MODULE, table).

init([]) ->
    Tab = ets:new(prices, [public]),
    ets:insert(Tab, {widget, 10, 0}),
    {ok, {state, Tab}}.

handle_call(table, _From, {state, Tab} = S) ->
    {reply, Tab, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

refresh(Item) ->
    Tab = table(),
    [{Item, Price, Seen}] = ets:lookup(Tab, Item),
%%                          ^^^^^^^^^^ R002 #1 read: ets <tid>/<Item>, the table from the server's state (confirmed)
    ets:insert(Tab, {Item, Price, Seen + 1}).
%%  ^^^^^^^^^^ R002 #1 write: a stale count of refreshes

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> refresh(widget), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    [{widget, _, Seen}] = ets:lookup(table(), widget),
    stop(),
    Seen.
