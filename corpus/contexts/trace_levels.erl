%% A logger's configuration, kept under one key of a public named ETS
%% table as {Level, Traces}: each API function reads it through get/1 and
%% puts back a changed copy through set/2 (lager's lager_config). clear/0
%% keeps the level and drops the traces; set_level/1 keeps the traces and
%% puts a new level. A clear that reads the item, then a set_level, then
%% the clear's write puts the old level back: the level change is lost,
%% which no serial order gives. Two clears (or two set_levels of one
%% level) lose nothing: only the other function's update is lost, so the
%% harness races clear/0 with the program's other read-modify-writes of
%% the same item (set_level/1, add/1), called as the program calls them.
%% The handlers list is another item of the same table: its update is not
%% a rival of clear/0.
%% Expected: R002 confirmed (non_serializable) for clear/0 raced by set_level/1.
-module(trace_levels).
-export([init/0, clear/0, set_level/1, add/1, add_handler/1, level/0, test/0]).

-define(TAB, trace_levels_cfg).

init() ->
    ets:new(?TAB, [named_table, public, set]),
    write({sink, loglevel}, {info, []}),
    write({global, handlers}, []),
    ok.

read(Key) ->
    [{Key, Value}] = ets:lookup(?TAB, Key),
%%                   ^^^^^^^^^^^^^^^^^^^^^ R002 #1 #2 #3 #4 read: the configuration, through clear/0, set_level/1, add/1, add_handler/1
    Value.

write(Key, Value) ->
    ets:insert(?TAB, {Key, Value}).
%%  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 #2 #3 #4 write: an update made between the read and this write is lost

clear() ->
    {Level, _Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, []}).

set_level(Level) ->
    {_, Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, Traces}).

add(Filter) ->
    {Level, Traces} = read({sink, loglevel}),
    write({sink, loglevel}, {Level, [Filter | Traces]}).

add_handler(Handler) ->
    Handlers = read({global, handlers}),
    write({global, handlers}, [Handler | Handlers]).

level() ->
    {Level, _} = read({sink, loglevel}),
    Level.

test() ->
    init(),
    add({module, trace_levels}),
    add_handler(console),
    Self = self(),
    spawn(fun() -> clear(), Self ! done end),
    spawn(fun() -> set_level(debug), Self ! done end),
    [receive done -> ok end || _ <- [1, 2]],
    Level = level(),
    ets:delete(?TAB),
    Level.
