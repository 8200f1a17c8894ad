%% Applications register their plugins as a list of {Kind, What} pairs.
%% A bucket fixup is stored on its own; a health check is added to the
%% application environment's list of checks by reading the list and
%% putting back a longer copy: two applications registering their checks
%% at once can lose one. The program's own calls of add_plugins/2 pass only
%% fixups, so a harness using their values never gets to the checks: only
%% a value the health-check clause accepts does.
%% Expected: R007 #1 and #2 (one read, two writes) confirmed, non_serializable, with argument 2 from the
%% clause of add_plugins/2 that leads to the read (before: not_reached, every
%% run taking the fixup clause).
-module(plugin_registry).
-export([add_plugins/2, checks/0, test/0]).

add_plugins(_App, []) ->
    ok;
add_plugins(App, [{fixup, Mod} | Rest]) ->
    application:set_env(plugin_registry, {fixup, App}, Mod),
    add_plugins(App, Rest);
add_plugins(App, [{health_check, Check} | Rest]) ->
    add_check(App, Check),
    add_plugins(App, Rest).

add_check(App, Check) ->
    case application:get_env(plugin_registry, checks) of
%%       ^^^^^^^^^^^^^^^^^^^ R007 #1 #2 read: the checks registered so far
        undefined ->
            application:set_env(plugin_registry, checks, [{App, Check}]);
%%          ^^^^^^^^^^^^^^^^^^^ R007 #1 write: the first check, when another came in between
        {ok, Checks} ->
            application:set_env(plugin_registry, checks, lists:usort([{App, Check} | Checks]))
%%          ^^^^^^^^^^^^^^^^^^^ R007 #2 write: a check registered in between is lost
    end.

checks() ->
    application:get_env(plugin_registry, checks, []).

test() ->
    ok = add_plugins(web, [{fixup, web_fixup}]),
    ok = add_plugins(store, [{fixup, store_fixup}]),
    checks().
