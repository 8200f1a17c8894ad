%% One callback module run as two servers, each started under its own
%% constant name ({local, shelf_front} and {local, shelf_back}), both
%% counting stock in the same public table. Each server serialises its
%% own requests only: a request to the front and one to the back both
%% read the count, and the second insert loses the first's add.
%% Expected: confirmed (non_serializable).
-module(shelf_servers).
-behaviour(gen_server).
-export([start/0, stop/0, add/3, add_front/0, add_back/0, stock/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(TAB, shelf_servers_stock).

start() ->
    ets:new(?TAB, [named_table, public, set]),
    {ok, _} = gen_server:start({local, shelf_front}, ?MODULE, [], []),
    {ok, _} = gen_server:start({local, shelf_back}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(shelf_front),
    gen_server:stop(shelf_back),
    ets:delete(?TAB).

add(Server, Item, N) ->
    gen_server:call(Server, {add, Item, N}).

add_front() ->
    add(shelf_front, pears, 1).

add_back() ->
    add(shelf_back, pears, 1).

stock(Item) ->
    case ets:lookup(?TAB, Item) of
        [{Item, N}] -> N;
        [] -> 0
    end.

init([]) ->
    {ok, #{}}.

handle_call({add, Item, N}, _From, State) ->
    Old = case ets:lookup(?TAB, Item) of
%%             ^^^^^^^^^^ R002 #1 read: the front and the back server both read the count
              [{Item, C}] -> C;
              [] -> 0
          end,
    ets:insert(?TAB, {Item, Old + N}),
%%  ^^^^^^^^^^ R002 #1 write: the second server's insert loses the first's add
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), Add()} end)
            || Add <- [fun add_front/0, fun add_back/0]],
    [receive {P, _} -> ok end || P <- Pids],
    N = stock(pears),
    stop(),
    N.
