%% A configuration cache whose reader module is a parameter.  Nothing in
%% the program calls fetch/2, so the harness has no reader to pass and makes
%% one up: the call on it is undef, as on the BEAM, and the verdict must say
%% that the harness made the module up, not that a dependency is missing.
%% Expected: R002 unconfirmed, not_reached (the write is never executed; the
%% detail names the made-up module).
-module(config_reader).
-export([start/0, fetch/2, test/0]).

-define(TAB, config_reader_cache).

start() ->
    ets:new(?TAB, [named_table, public]),
    ok.

fetch(Reader, Name) ->
    case ets:lookup(?TAB, Name) of
%%       ^^^^^^^^^^ R002 #1 read: ets config_reader_cache/<Name> (unconfirmed, not_reached)
        [{Name, Value}] ->
            Value;
        [] ->
            Value = Reader:read_config(Name),
            ets:insert(?TAB, {Name, Value}),
%%          ^^^^^^^^^^ R002 #1 write: after the call on the made-up reader
            Value
    end.

%% The readers are the library user's modules, none of them here: the test
%% only starts the cache and finds it empty.
test() ->
    start(),
    [] = ets:lookup(?TAB, port),
    ets:delete(?TAB),
    ok.
