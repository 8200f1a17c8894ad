%% The node's options are one map under one persistent_term key, put whole
%% by load/1 when the node starts (defaults/0 is how the program calls it);
%% before that there is nothing to read, and opt/1, set/2 and unset/1
%% raise badarg. set/2 and unset/1 each read the map and put back a
%% changed copy: two changes at once lose one of them. Only a harness that
%% runs load/1 first reaches the writes.
%% Expected: #1 (set) and #2 (unset) confirmed, non_serializable, after
%% load/1 (the program's own way to set the map as a whole).
-module(opts_loaded).
-export([defaults/0, load/1, opt/1, set/2, unset/1, test/0]).

defaults() ->
    load(#{port => 5222, hosts => [<<"localhost">>]}).

load(Opts) ->
    persistent_term:put(opts_loaded, Opts).

opt(Key) ->
    maps:get(Key, persistent_term:get(opts_loaded)).

set(Key, Value) ->
    Opts = persistent_term:get(opts_loaded),
%%         ^^^^^^^^^^^^^^^^^^^ R006 #1 read: the options before the change
    persistent_term:put(opts_loaded, Opts#{Key => Value}).
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 write: a change made in between is lost

unset(Key) ->
    Opts = persistent_term:get(opts_loaded),
%%         ^^^^^^^^^^^^^^^^^^^ R006 #2 read: the options before the removal
    persistent_term:put(opts_loaded, maps:remove(Key, Opts)).
%%  ^^^^^^^^^^^^^^^^^^^ R006 #2 write: a change made in between is lost

%% How the program uses them: load, then change, one after another.
test() ->
    defaults(),
    set(port, 5223),
    unset(hosts),
    Port = opt(port),
    persistent_term:erase(opts_loaded),
    Port.
