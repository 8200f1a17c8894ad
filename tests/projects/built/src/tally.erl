%% Counts kept in a public table that a dependency makes (kvtab, built
%% into _build/default/lib as rebar3 builds it). bump/1 reads a count and
%% writes it back plus one: two bumps of one key lose one.
-module(tally).
-export([start/0, bump/1]).

start() ->
    kvtab:new(tally_counts).

bump(Key) ->
    N = case ets:lookup(tally_counts, Key) of
            [{_, V}] -> V;
            [] -> 0
        end,
    ets:insert(tally_counts, {Key, N + 1}).
