-module(emk_cache).
-include("emk.hrl").
-include_lib("dep_y/include/y.hrl").
-export([init/0, hit/1]).

init() ->
    ets:new(?TABLE, [named_table, public, {keypos, #y_entry.key}]).

%% Lookup then insert of the same key: two callers lose a hit.
hit(Key) ->
    case ets:lookup(?TABLE, Key) of
        [] -> ets:insert(?TABLE, #y_entry{key = Key, hits = 1});
        [#y_entry{hits = N} = E] -> ets:insert(?TABLE, E#y_entry{hits = N + 1})
    end.

-ifdef(TEST).
-ifdef(VERBOSE).
-include("verbose.hrl").
-export([dump/0]).
dump() -> ?LOG(ets:tab2list(?TABLE)).
-endif.
-endif.
