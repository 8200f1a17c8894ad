%% Metric tags, folsom style: add_tag/2 reads the metric's record with
%% lookup_element/3 and writes it back with update_element/3 and one more
%% tag.  Two tags added at once: one is lost.
%% Expected: R002 confirmed, non_serializable.
-module(metric_tags).
-export([setup/0, teardown/0, add_tag/2, tags/1, test/0]).

-record(metric, {type, tags = []}).

setup() ->
    ets:new(metrics, [named_table, public]),
    ets:insert(metrics, {requests, #metric{type = counter}}),
    ok.

teardown() ->
    ets:delete(metrics),
    ok.

add_tag(Name, Tag) ->
    M = #metric{tags = Tags} = ets:lookup_element(metrics, Name, 2),
%%                             ^^^^^^^^^^^^^^^^^^ R002 #1 read: ets metrics/<Name> (confirmed)
    true = ets:update_element(metrics, Name, {2, M#metric{tags = [Tag | Tags]}}),
%%         ^^^^^^^^^^^^^^^^^^ R002 #1 write: replaces the record with a stale tag list
    ok.

tags(Name) ->
    lists:sort((ets:lookup_element(metrics, Name, 2))#metric.tags).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> add_tag(requests, T), Self ! {done, self()} end) || T <- [web, api]],
    [receive {done, P} -> ok end || P <- Pids],
    Tags = tags(requests),
    teardown(),
    Tags.
