%% The internal half of api_gauge_ok: per-process gauges with an aggregate,
%% kept in one public table, exported for api_gauge_ok and taking the
%% owner's pid as an argument. See api_gauge_ok for why nothing races.
-module(api_gauge_ok_lib).
-export([new_tab/0, insert/3, do_set/3, add/3, test/0]).

-define(TAB, api_gauges).

new_tab() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

insert({g, Name} = Key, Value, Pid) ->
    true = ets:insert_new(?TAB, {{Key, Pid}, Value}),
    ets:update_counter(?TAB, {aggr, Name}, Value, {{aggr, Name}, 0}),
    true.

do_set({g, Name} = Key, Value, Pid) ->
    Old = ets:lookup_element(?TAB, {Key, Pid}, 2),
%%        ^^^^^^^^^^^^^^^^^^ R002 #1 read: the owner's old value
    ets:insert(?TAB, {{Key, Pid}, Value}),
%%  ^^^^^^^^^^ R002 #1 write: only the owner writes its gauge
    ets:update_counter(?TAB, {aggr, Name}, Value - Old),
    true.

add({g, Name} = Key, N, Pid) ->
    ets:update_counter(?TAB, {Key, Pid}, N),
    ets:update_counter(?TAB, {aggr, Name}, N).

test() ->
    api_gauge_ok:test().
