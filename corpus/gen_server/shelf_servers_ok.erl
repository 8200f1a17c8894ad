%% The twin of shelf_servers: the callback module is started from two
%% functions, but under the one constant name {local, shelf_server}, so
%% at most one server runs at a time and it makes every write of the
%% table: its read and insert are serialised by its mailbox.
%% Expected: R002 filtered (one server, one name).
-module(shelf_servers_ok).
-behaviour(gen_server).
-export([start/0, restart/0, stop/0, add/2, stock/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(TAB, shelf_servers_ok_stock).

start() ->
    ets:new(?TAB, [named_table, public, set]),
    {ok, _} = gen_server:start({local, shelf_server}, ?MODULE, [], []),
    ok.

restart() ->
    gen_server:stop(shelf_server),
    {ok, _} = gen_server:start({local, shelf_server}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(shelf_server).

add(Item, N) ->
    gen_server:call(shelf_server, {add, Item, N}).

stock(Item) ->
    case ets:lookup(?TAB, Item) of
        [{Item, N}] -> N;
        [] -> 0
    end.

init([]) ->
    {ok, #{}}.

handle_call({add, Item, N}, _From, State) ->
    Old = case ets:lookup(?TAB, Item) of
%%             ^^^^^^^^^^ R002 #1 read: in the one shelf_server (filtered)
              [{Item, C}] -> C;
              [] -> 0
          end,
    ets:insert(?TAB, {Item, Old + N}),
%%  ^^^^^^^^^^ R002 #1 write: the same server, which makes every write of the table
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    start(),
    restart(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), add(pears, 1)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = stock(pears),
    stop(),
    N.
