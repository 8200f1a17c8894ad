%% A metric's groups kept in a public table. join/2 reads the metric's
%% groups and writes them back with one more: two processes adding a group
%% to one metric at once both read the old list, and the second write loses
%% the first group. A metric exists only after new/1 (the program always
%% creates it first, as example/1 shows); a harness that joins a metric
%% nobody created never reaches the write.
%% Expected: R002 confirmed, non_serializable, after new/1, each worker
%% with its own made-up group.
-module(metric_groups).
-export([init/0, new/1, join/2, test/0]).

init() ->
    ets:new(metric_groups, [named_table, public]),
    ok.

new(Name) ->
    ets:insert_new(metric_groups, {Name, []}).

join(Name, Group) ->
    [{Name, Groups}] = ets:lookup(metric_groups, Name),
%%                     ^^^^^^^^^^ R002 #1 read: the metric's groups (confirmed, non_serializable)
    ets:insert(metric_groups, {Name, lists:usort([Group | Groups])}).
%%  ^^^^^^^^^^ R002 #1 write: a concurrent join's group is lost

example(Group) ->
    true = new(requests),
    join(requests, Group).

%% The metric's life without a second process: created, then joined.
test() ->
    init(),
    example(erlang:unique_integer([positive])),
    [{requests, Groups}] = ets:lookup(metric_groups, requests),
    ets:delete(metric_groups),
    Groups.
