%% Lazy initialisation guarded by an application environment flag: two
%% callers can both see the flag unset, and the second ets:new of the named
%% table raises badarg (the cache table dies with the worker that made it). The application environment is node-wide shared
%% state (kept in ac_tab), so the check and the set race like a registry pair.
%% Expected: explore finds a crash at bound 1.
-module(app_env_init).
-export([ensure_cache/0, test/0]).

ensure_cache() ->
    case application:get_env(app_env_init, cache_ready) of
%%       ^^^^^^^^^^^^^^^^^^^^ R007 #1 read: application app_env_init, key cache_ready
        {ok, true} ->
            ok;
        undefined ->
            ets:new(app_env_cache, [named_table, public, set]),
            ok = application:set_env(app_env_init, cache_ready, true),
%%               ^^^^^^^^^^^^^^^^^^^^ R007 #1 write: the second initialisation sets it again
            ok
    end.

test() ->
    Workers = [spawn_monitor(fun() -> ensure_cache() end) || _ <- [1, 2]],
    Exits = [receive {'DOWN', Ref, process, _, Why} -> Why end || {_, Ref} <- Workers],
    ok = application:unset_env(app_env_init, cache_ready),
    Exits.
