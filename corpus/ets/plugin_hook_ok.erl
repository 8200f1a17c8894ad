%% A hook runner: run_hooks/1 checks a flag, then calls the hook fun its
%% caller passes in.  Elsewhere reset_fun/0 hands out a fun that resets the
%% flag; no code passes it to run_hooks/1, so calling an unknown fun there
%% is not calling it (no fan-out to every fun of arity 0).
%% Expected: R002 filtered (the fun call names no fun that writes the flag).
-module(plugin_hook_ok).
-export([setup/0, teardown/0, run_hooks/1, reset_fun/0, test/0]).

setup() ->
    ets:new(hooks, [named_table, public]),
    ets:insert(hooks, {enabled, true}),
    ok.

teardown() ->
    ets:delete(hooks),
    ok.

run_hooks(Hook) ->
    case ets:lookup(hooks, enabled) of
%%       ^^^^^^^^^^ R002 #1 read: ets hooks/enabled, then an unknown fun (filtered)
        [{enabled, true}] -> Hook();
        _ -> skipped
    end.

reset_fun() ->
    fun() -> ets:insert(hooks, {enabled, false}) end.
%%           ^^^^^^^^^^ R002 #1 write: in a fun no caller of run_hooks/1 passes

test() ->
    setup(),
    R = run_hooks(fun() -> ran end),
    teardown(),
    R.
