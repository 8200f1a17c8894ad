%% The twin of level_cache: set_level/2 keeps its levels under keys of
%% their own ({level_cache_ok, override, M}), read after the cache. The
%% cache entry is only ever the default, so two first allow/2 calls that
%% both fill it write the same value: a race that loses nothing, and no
%% writer of the cache key to race it with.
%% Expected: R006 confirmed none.
-module(level_cache_ok).
-export([allow/2, set_level/2, test/0]).

allow(Level, Module) ->
    Max =
        case persistent_term:get({?MODULE, Module}, undefined) of
%%           ^^^^^^^^^^^^^^^^^^^ R006 #1 read: persistent_term {level_cache_ok, Module}
            undefined ->
                persistent_term:put({?MODULE, Module}, 5),
%%              ^^^^^^^^^^^^^^^^^^^ R006 #1 write: the same default whoever writes it
                5;
            Cached ->
                Cached
        end,
    Level =< persistent_term:get({?MODULE, override, Module}, Max).

set_level(Modules, Level) when is_integer(Level) ->
    [persistent_term:put({?MODULE, override, M}, Level) || M <- Modules],
    ok.

test() ->
    ok = set_level([db], 7),
    allow(3, db).
