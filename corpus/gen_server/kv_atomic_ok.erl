%% The fixed version of kv_split_client: incr/1 is a single call and the
%% read-modify-write happens inside one handle_call/3 clause of the server
%% that owns the protected table, so increments are serialized.
%% Expected: filtered (table not public; read and write in one callback).
-module(kv_atomic_ok).
-behaviour(gen_server).
-export([start/0, stop/0, fetch/1, incr/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(SERVER, kv_atomic).
-define(TAB, kv_atomic_data).

start() ->
    {ok, _} = gen_server:start({local, ?SERVER}, ?MODULE, [], []),
    ok.

stop() ->
    gen_server:stop(?SERVER).

fetch(Key) ->
    gen_server:call(?SERVER, {get, Key}).

incr(Key) ->
    gen_server:call(?SERVER, {incr, Key}).

init([]) ->
    ets:new(?TAB, [named_table, protected, set]),
    {ok, #{}}.

handle_call({get, Key}, _From, State) ->
    {reply, value(Key), State};
handle_call({incr, Key}, _From, State) ->
    New = value(Key) + 1,
    ets:insert(?TAB, {Key, New}),
%%  ^^^^^^^^^^ R002 #1 write (filtered): owner-only write inside the same callback
    {reply, New, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

value(Key) ->
    case ets:lookup(?TAB, Key) of
%%       ^^^^^^^^^^ R002 #1 read (filtered): protected table read by its owner
        [{Key, V}] -> V;
        [] -> 0
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), incr(visits)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    V = fetch(visits),
    stop(),
    V.
