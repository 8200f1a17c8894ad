%% A plugin host that registers each plugin under its own name.  Instead of
%% whereis/1 it scans registered/0, which is just as stale by the time
%% register/2 runs: two loads of the same plugin race.
%% Expected: R001 confirmed, crash (badarg from the second register), bound 1.
-module(registered_check).
-export([load/1, loaded/0, unload/1, test/0]).

load(Plugin) when is_atom(Plugin) ->
    Known = registered(),
%%          ^^^^^^^^^^ R001 #1 read: registry (all names) (confirmed, crash)
    case lists:member(Plugin, Known) of
        true ->
            {already_loaded, Plugin};
        false ->
            Pid = spawn(fun() -> plugin_loop(Plugin, []) end),
            register(Plugin, Pid),
%%          ^^^^^^^^ R001 #1 write: badarg if the same plugin was loaded meanwhile
            {loaded, Plugin}
    end.

loaded() ->
    [Name || Name <- registered(), is_plugin(Name)].

is_plugin(Name) ->
    lists:prefix("plugin_", atom_to_list(Name)).

unload(Plugin) ->
    case whereis(Plugin) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

plugin_loop(Name, Events) ->
    receive
        {event, E} -> plugin_loop(Name, [E | Events]);
        {events, From} -> From ! {Name, lists:reverse(Events)}, plugin_loop(Name, Events);
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch load(plugin_audit)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> R end || P <- Pids],
    Names = loaded(),
    unload(plugin_audit),
    {Results, Names}.
