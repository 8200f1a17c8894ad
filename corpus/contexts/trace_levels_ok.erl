%% The look-alike of trace_levels: the same {Level, Traces} item under one
%% key of a public named ETS table, read and put back changed by clear/0,
%% set_level/1 and add/1; but each is a request to one registered server,
%% whose callbacks make the read and the write one request at a time. A
%% clear and a set_level sent at once are handled one after the other:
%% nothing is lost, and racing one API function with another finds nothing
%% either.
%% Expected: no suspect (every read-modify-write runs in the server).
-module(trace_levels_ok).
-behaviour(gen_server).
-export([start/0, clear/0, set_level/1, add/1, level/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

-define(TAB, trace_levels_ok_cfg).

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).

clear() -> gen_server:call(?MODULE, clear).
set_level(Level) -> gen_server:call(?MODULE, {set_level, Level}).
add(Filter) -> gen_server:call(?MODULE, {add, Filter}).

level() ->
    {Level, _} = read({sink, loglevel}),
    Level.

init([]) ->
    ets:new(?TAB, [named_table, public, set]),
    write({sink, loglevel}, {info, []}),
    {ok, nostate}.

handle_call(clear, _From, State) ->
    {Level, _Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, []}),
    {reply, ok, State};
handle_call({set_level, Level}, _From, State) ->
    {_, Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, Traces}),
    {reply, ok, State};
handle_call({add, Filter}, _From, State) ->
    {Level, Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, [Filter | Traces]}),
    {reply, ok, State}.

handle_cast(_Msg, State) ->
    {noreply, State}.

read(Key) ->
    [{Key, Value}] = ets:lookup(?TAB, Key),
%%                   ^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the configuration, only in the server's callbacks (filtered)
    Value.

write(Key, Value) ->
    ets:insert(?TAB, {Key, Value}).
%%  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: one request at a time, nothing lost

test() ->
    {ok, Pid} = start(),
    add({module, trace_levels_ok}),
    Self = self(),
    spawn(fun() -> clear(), Self ! done end),
    spawn(fun() -> set_level(debug), Self ! done end),
    [receive done -> ok end || _ <- [1, 2]],
    Level = level(),
    gen_server:stop(Pid),
    Level.
