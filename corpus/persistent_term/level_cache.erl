%% A per-module log level cache in persistent_term: allow/2 fills a
%% module's entry with the default level the first time the module logs,
%% set_level/2 sets chosen modules' levels. An allow/2 that read no entry
%% and puts the default after set_level/2 has put a module's level loses
%% that level: the module logs at the default again.
%% Expected: R006 confirmed non_serializable (allow/2 raced by set_level/2).
-module(level_cache).
-export([allow/2, set_level/2, test/0]).

allow(Level, Module) ->
    Max =
        case persistent_term:get({?MODULE, Module}, undefined) of
%%           ^^^^^^^^^^^^^^^^^^^ R006 #1 read: persistent_term {level_cache, Module}
            undefined ->
                persistent_term:put({?MODULE, Module}, 5),
%%              ^^^^^^^^^^^^^^^^^^^ R006 #1 write: the default over the level set_level/2 put
                5;
            Cached ->
                Cached
        end,
    Level =< Max.

set_level(Modules, Level) when is_integer(Level) ->
    [persistent_term:put({?MODULE, M}, Level) || M <- Modules],
    ok.

test() ->
    ok = set_level([db], 7),
    allow(3, db).
