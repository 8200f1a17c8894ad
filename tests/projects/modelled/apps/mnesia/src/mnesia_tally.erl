%% Counts kept by the modelled application's own code.
-module(mnesia_tally).
-export([init/0, tally/1, note/1, sale/1]).

init() ->
    ets:new(mnesia_tally, [named_table, public]),
    ok.

%% Called only by the application itself.
tally(Key) ->
    case ets:lookup(mnesia_tally, {tally, Key}) of
        [] -> ets:insert(mnesia_tally, {{tally, Key}, 1});
        [{_, N}] -> ets:insert(mnesia_tally, {{tally, Key}, N + 1})
    end.

%% Also reached from outside the application: shop:sell/1 calls sale/1.
note(Key) ->
    case ets:lookup(mnesia_tally, {note, Key}) of
        [] -> ets:insert(mnesia_tally, {{note, Key}, 1});
        [{_, N}] -> ets:insert(mnesia_tally, {{note, Key}, N + 1})
    end.

sale(Item) ->
    note(Item),
    ok.
