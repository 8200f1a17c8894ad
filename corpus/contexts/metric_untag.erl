%% Labels on a metric kept in a public table. label/2 and unlabel/2 each
%% read the metric's label set and write it back changed. Two unlabels of
%% one label lose nothing anyone could see (the label is gone either way);
%% an unlabel racing a label drops the new label: the unlabel read the set
%% before the label was added and writes it back without it. A metric
%% exists only after create/1, which the program calls first.
%% Expected: #1 (label) and #2 (unlabel) confirmed, non_serializable; #2 by
%% a harness whose second worker calls label/2.
-module(metric_untag).
-export([init/0, create/1, label/2, unlabel/2, test/0]).

init() ->
    ets:new(metric_labels, [named_table, public]),
    ok.

create(Name) ->
    ets:insert_new(metric_labels, {Name, ordsets:new()}).

label(Name, Label) ->
    [{Name, Labels}] = ets:lookup(metric_labels, Name),
%%                     ^^^^^^^^^^ R002 #1 read: the labels before adding one
    ets:insert(metric_labels, {Name, ordsets:add_element(Label, Labels)}).
%%  ^^^^^^^^^^ R002 #1 write: a concurrent label is lost

unlabel(Name, Label) ->
    [{Name, Labels}] = ets:lookup(metric_labels, Name),
%%                     ^^^^^^^^^^ R002 #2 read: the labels before removing one
    ets:insert(metric_labels, {Name, ordsets:del_element(Label, Labels)}).
%%  ^^^^^^^^^^ R002 #2 write: a label added in between is lost

%% How the program uses them: create, label, unlabel, one after another.
test() ->
    init(),
    Label = erlang:unique_integer([positive]),
    true = create(latency),
    label(latency, Label),
    unlabel(latency, Label),
    [{latency, Labels}] = ets:lookup(metric_labels, latency),
    ets:delete(metric_labels),
    Labels.
