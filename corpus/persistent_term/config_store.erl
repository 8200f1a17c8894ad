%% Application settings kept as one map in persistent_term for cheap reads.
%% set/2 reads the whole map, adds a key and puts the map back: two settings
%% changed at once lose one of them.
%% Expected: R006 confirmed, non_serializable, bound 1.
-module(config_store).
-export([setting/1, set/2, clear/0, test/0]).

-define(KEY, {?MODULE, settings}).

setting(Key) ->
    maps:get(Key, persistent_term:get(?KEY, #{}), undefined).

set(Key, Value) ->
    Settings = persistent_term:get(?KEY, #{}),
%%             ^^^^^^^^^^^^^^^^^^^ R006 #1 read: persistent_term {config_store, settings} (confirmed)
    persistent_term:put(?KEY, Settings#{Key => Value}),
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 write: drops a key set concurrently (non_serializable)
    ok.

clear() ->
    persistent_term:erase(?KEY),
    ok.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), set(K, V)} end)
            || {K, V} <- [{log_level, debug}, {pool_size, 16}]],
    [receive {P, ok} -> ok end || P <- Pids],
    Result = {setting(log_level), setting(pool_size)},
    clear(),
    Result.
