%% A process loads version 2 of reload_vsn (compile:forms, code:load_binary)
%% while another calls reload_vsn:version/0 and crashes if it still runs
%% version 1. Which version the call reaches depends on the order of the
%% call and the load: every order must be explored, whichever process is
%% spawned first. The same with a module the node does not have until the
%% load makes it (the call is undef before).
-module(reload).
-export([caller_first/0, loader_first/0, made_caller_first/0, made_loader_first/0,
         load_v2/0]).

load(Mod) ->
    Forms = [{attribute, 1, module, Mod},
             {attribute, 1, export, [{version, 0}]},
             {function, 1, version, 0, [{clause, 1, [], [], [{integer, 1, 2}]}]}],
    {ok, Mod, Bin} = compile:forms(Forms),
    {module, Mod} = code:load_binary(Mod, atom_to_list(Mod) ++ ".erl", Bin),
    ok.

load_v2() -> load(reload_vsn).

call() ->
    case reload_vsn:version() of
        2 -> ok;
        1 -> exit(old_version)
    end.

made() -> list_to_atom("reload_" ++ "made").

call_made() ->
    M = made(),
    case catch M:version() of
        2 -> ok;
        {'EXIT', {undef, _}} -> exit(not_loaded_yet)
    end.

wait(Pids) ->
    [receive {'DOWN', R, process, _, _} -> ok end || {_, R} <- Pids],
    ok.

caller_first() ->
    wait([spawn_monitor(fun call/0), spawn_monitor(fun load_v2/0)]).

loader_first() ->
    wait([spawn_monitor(fun load_v2/0), spawn_monitor(fun call/0)]).

made_caller_first() ->
    wait([spawn_monitor(fun call_made/0), spawn_monitor(fun() -> load(made()) end)]).

made_loader_first() ->
    wait([spawn_monitor(fun() -> load(made()) end), spawn_monitor(fun call_made/0)]).
