%% A library's cache of negotiated protocols per host. The table is made by
%% the application that embeds the library (its supervisor, not carried
%% here): a harness that calls remember/2 as it is finds no table (ets:info/2
%% answers undefined, `undefined >= ?MAX` is true, and the trim meets no
%% table: badarg), which says nothing of the race; the harness that makes
%% the named public table first, as the user would, never trims a small cache.
%% Expected: R002 #1 unconfirmed (not_reached), never "every interleaving
%% explored"; #2 confirmed with no visible harm (the same host put twice).
-module(protocol_cache).
-export([remember/2, recall/1, test/0]).

-define(TAB, protocol_cache).
-define(MAX, 100).

remember(Host, Proto) ->
    case ets:info(?TAB, size) >= ?MAX of
%%       ^^^^^^^^ R002 #1 #2 read: ets protocol_cache size (#1 unconfirmed, not_reached; #2 confirmed, none)
        true -> ets:delete_all_objects(?TAB);
%%              ^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: a cache of one or two hosts is never trimmed
        false -> ok
    end,
    ets:insert(?TAB, {Host, Proto}).
%%  ^^^^^^^^^^ R002 #2 write: both put the same host: no harm shows

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
