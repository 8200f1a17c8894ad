%% A dependency: makes a named public table.
-module(kvtab).
-export([new/1]).

new(Name) ->
    Name = ets:new(Name, [named_table, public, set]),
    ok.
