%% A library's cache of negotiated protocols per host. The table is made by
%% the application that embeds the library (its supervisor, not carried
%% here), so a harness that calls remember/2 finds no table: ets:info/2
%% answers undefined, `undefined >= ?MAX` is true (an atom sorts after a
%% number), and the trim meets no table (badarg). No run executes the trim
%% or the insert on a cache that exists.
%% Expected: R002 unconfirmed (not_reached) for both, never "every
%% interleaving explored": a write that met no table says nothing of the race.
-module(protocol_cache).
-export([remember/2, recall/1, test/0]).

-define(TAB, protocol_cache).
-define(MAX, 100).

remember(Host, Proto) ->
    case ets:info(?TAB, size) >= ?MAX of
%%       ^^^^^^^^ R002 #1 #2 read: ets protocol_cache size (unconfirmed, not_reached)
        true -> ets:delete_all_objects(?TAB);
%%              ^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: meets no table in every run
        false -> ok
    end,
    ets:insert(?TAB, {Host, Proto}).
%%  ^^^^^^^^^^ R002 #2 write: never reached (the trim crashed first)

recall(Host) ->
    case ets:lookup(?TAB, Host) of
        [{_, Proto}] -> {ok, Proto};
        [] -> error
    end.

%% Without its embedding application, as a harness runs it: on the BEAM
%% too the trim meets no table and raises badarg.
test() ->
    {'EXIT', {badarg, _}} = (catch remember(a, h2)),
    no_table.
