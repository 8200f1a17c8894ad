%% The internal half of api_counter: per-process counters with an aggregate,
%% kept in one public table. Its functions are exported for api_counter (as
%% gproc_lib's are for gproc) and take the owner's pid as an argument; the
%% program's users never call them. See api_counter for the race.
-module(api_counter_lib).
-export([new_tab/0, insert/3, do_set/3, add/3, test/0]).

-define(TAB, api_counters).

new_tab() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

insert({c, Name} = Key, Value, Pid) ->
    true = ets:insert_new(?TAB, {{Key, Pid}, Value}),
    ets:update_counter(?TAB, {aggr, Name}, Value, {{aggr, Name}, 0}),
    true.

do_set({c, Name} = Key, Value, Pid) ->
    Old = ets:lookup_element(?TAB, {Key, Pid}, 2),
%%        ^^^^^^^^^^^^^^^^^^ R002 #1 read: the owner's old value
    ets:insert(?TAB, {{Key, Pid}, Value}),
%%  ^^^^^^^^^^ R002 #1 write: overwrites an increment made in between
    ets:update_counter(?TAB, {aggr, Name}, Value - Old),
    true.

add({c, Name} = Key, N, Pid) ->
    ets:update_counter(?TAB, {Key, Pid}, N),
    ets:update_counter(?TAB, {aggr, Name}, N).

test() ->
    api_counter:test().
