%% Settings with a default written on first use: setting/1 reads it
%% and, when lookup_element/3 raises because it is missing, catches the
%% badarg and writes the default.  A setting stored in between by store/2 is
%% overwritten by the default.
%% Expected: R002 confirmed, non_serializable (the stored value is lost).
-module(default_on_miss).
-export([setup/0, teardown/0, setting/1, store/2, test/0]).

setup() ->
    ets:new(settings, [named_table, public]),
    ok.

teardown() ->
    ets:delete(settings),
    ok.

setting(Key) ->
    try
        ets:lookup_element(settings, Key, 2)
%%      ^^^^^^^^^^^^^^^^^^ R002 #1 read: ets settings/<Key> (confirmed)
    catch
        error:badarg ->
            ets:insert(settings, {Key, default}),
%%          ^^^^^^^^^^ R002 #1 write: the default over a value put in between
            default
    end.

store(Key, Value) ->
    ets:insert(settings, {Key, Value}).

test() ->
    setup(),
    Self = self(),
    P1 = spawn(fun() -> setting(theme), Self ! {done, self()} end),
    P2 = spawn(fun() -> store(theme, dark), Self ! {done, self()} end),
    [receive {done, P} -> ok end || P <- [P1, P2]],
    V = ets:lookup_element(settings, theme, 2),
    teardown(),
    V.
