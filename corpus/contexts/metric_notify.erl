%% Metrics made on first use (folsom's notify, the race of
%% folsom-notify_create-90): notify/2 has add_metric/2 make the metric when
%% it does not exist (add_metric checks its entry; the metric server makes
%% it, and its counter in a table of its own, set to 0), then increments
%% it. Two processes notifying a new counter both find no entry and both
%% have it made: the second creation resets the counter after the first
%% increment, which is lost. add_metric/2 or new_counter/1 alone show no
%% harm (two creations leave what one leaves); only notify's caller, which
%% goes on to increment, does. Expected: R002 #1 and #2 confirmed,
%% non_serializable, through notify/2.
-module(metric_notify).
-behaviour(gen_server).
-export([start/0, add_metric/2, new_counter/1, notify/2, value/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    gen_server:start({local, metric_notify_srv}, ?MODULE, [], []).

init([]) ->
    ets:new(metric_notify, [named_table, public, set]),
    ets:new(metric_notify_counters, [named_table, public, set]),
    {ok, nostate}.

new_counter(Name) ->
    add_metric(counter, Name).

notify(Name, Event) ->
    notify(Name, Event, counter).

notify(Name, {inc, N}, counter) ->
    add_metric(counter, Name),
    inc(Name, N);
notify(_, _, _) ->
    {error, unknown_event}.

exists(Name) ->
    ets:member(metric_notify, Name).
%%  ^^^^^^^^^^ R002 #1 #2 read: the metric's entry, not made yet (confirmed, non_serializable)

add_metric(Type, Name) ->
    maybe_add(Type, Name, exists(Name)).

maybe_add(counter, Name, false) ->
    gen_server:call(metric_notify_srv, {new, Name});
maybe_add(_, _, true) ->
    ok.

inc(Name, N) ->
    ets:update_counter(metric_notify_counters, {Name, 0}, N),
    ok.

value(Name) ->
    ets:lookup_element(metric_notify_counters, {Name, 0}, 2).

handle_call({new, Name}, _From, State) ->
    ets:insert(metric_notify_counters, [{{Name, 0}, 0}]),
%%  ^^^^^^^^^^ R002 #1 write: resets the counter another process incremented
    ets:insert(metric_notify, {Name, counter}),
%%  ^^^^^^^^^^ R002 #2 write: the entry made again
    {reply, ok, State}.

handle_cast(_, State) ->
    {noreply, State}.

test() ->
    start(),
    Self = self(),
    [spawn(fun() -> notify(hits, {inc, 1}), Self ! done end) || _ <- [1, 2]],
    [receive done -> ok end || _ <- [1, 2]],
    value(hits).
