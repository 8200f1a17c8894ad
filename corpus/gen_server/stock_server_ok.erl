%% Stock levels in a public table that only the stock server writes: take/2
%% asks the server, whose handle_call/3 reads the level and writes it back
%% lowered.  The server is registered under one name, so there is one of
%% it, and its mailbox puts the requests one after the other.
%% Expected: R002 filtered (read and write serialised in the one server).
-module(stock_server_ok).
-behaviour(gen_server).
-export([start/0, stop/0, take/2, level/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    {ok, _} = gen_server:start({local, ?MODULE}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?MODULE).

take(Item, N) ->
    gen_server:call(?MODULE, {take, Item, N}).

level(Item) ->
    ets:lookup_element(stock, Item, 2).

init([]) ->
    ets:new(stock, [named_table, public]),
    ets:insert(stock, {bolts, 10}),
    {ok, #{}}.

handle_call({take, Item, N}, _From, S) ->
    [{Item, Level}] = ets:lookup(stock, Item),
%%                    ^^^^^^^^^^ R002 #1 read: ets stock/<Item>, in the server only (filtered)
    ets:insert(stock, {Item, Level - N}),
%%  ^^^^^^^^^^ R002 #1 write: serialised by the server's mailbox
    {reply, ok, S}.

handle_cast(_Msg, S) ->
    {noreply, S}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> take(bolts, 2), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    L = level(bolts),
    stop(),
    L.
