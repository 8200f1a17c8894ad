%% A key-value server owning a protected ETS table.  Each call is atomic, but
%% the client API incr/1 does a fetch call and then a store call: two clients can
%% both get the old value.  The read and the write run in the server, on
%% behalf of the client, joined by the client's path between the two calls.
%% Expected: R002 confirmed, non_serializable, bound 1 (protected table or not).
-module(kv_split_client).
-behaviour(gen_server).
-export([start/0, stop/0, fetch/1, store/2, incr/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(SERVER, kv_server).
-define(TAB, kv_data).

start() ->
    {ok, _} = gen_server:start({local, ?SERVER}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?SERVER).

fetch(Key) ->
    gen_server:call(?SERVER, {get, Key}).

store(Key, Value) ->
    gen_server:call(?SERVER, {put, Key, Value}).

incr(Key) ->
    Value = fetch(Key),
    ok = store(Key, Value + 1),
    Value + 1.

init([]) ->
    ?TAB = ets:new(?TAB, [named_table, protected, set]),
    {ok, #{}}.

handle_call({get, Key}, _From, State) ->
    Value = case ets:lookup(?TAB, Key) of
%%               ^^^^^^^^^^ R002 #1 read: ets kv_data/<Key>, for the client's fetch (confirmed)
                [{Key, V}] -> V;
                [] -> 0
            end,
    {reply, Value, State};
handle_call({put, Key, Value}, _From, State) ->
    true = ets:insert(?TAB, {Key, Value}),
%%         ^^^^^^^^^^ R002 #1 write: the client's store of a stale value + 1
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), incr(visits)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    V = fetch(visits),
    stop(),
    V.
