%% The look-alike of metric_notify: notify/2 also has add_metric/2 make the
%% metric when its entry is missing and then increments it, and two
%% processes may both find no entry; but the metric server makes a metric
%% only when its own check finds no entry, and it handles one request at a
%% time: the second creation leaves the counter as the first increment left
%% it. No increment is lost.
%% Expected: R002 #1 and #2 not confirmed (every interleaving explored,
%% through add_metric/2 and through notify/2).
-module(metric_notify_ok).
-behaviour(gen_server).
-export([start/0, add_metric/2, new_counter/1, notify/2, value/1, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    gen_server:start({local, metric_notify_ok_srv}, ?MODULE, [], []).

init([]) ->
    ets:new(metric_notify_ok, [named_table, public, set]),
    ets:new(metric_notify_ok_counters, [named_table, public, set]),
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
    ets:member(metric_notify_ok, Name).
%%  ^^^^^^^^^^ R002 #1 #2 read: the metric's entry (not confirmed)

add_metric(Type, Name) ->
    maybe_add(Type, Name, exists(Name)).

maybe_add(counter, Name, false) ->
    gen_server:call(metric_notify_ok_srv, {new, Name});
maybe_add(_, _, true) ->
    ok.

inc(Name, N) ->
    ets:update_counter(metric_notify_ok_counters, {Name, 0}, N),
    ok.

value(Name) ->
    ets:lookup_element(metric_notify_ok_counters, {Name, 0}, 2).

handle_call({new, Name}, _From, State) ->
    case ets:member(metric_notify_ok, Name) of
        false ->
            ets:insert(metric_notify_ok_counters, [{{Name, 0}, 0}]),
%%          ^^^^^^^^^^ R002 #1 write: made only when the server finds no entry
            ets:insert(metric_notify_ok, {Name, counter});
%%          ^^^^^^^^^^ R002 #2 write: made only when the server finds no entry
        true ->
            true
    end,
    {reply, ok, State}.

handle_cast(_, State) ->
    {noreply, State}.

test() ->
    start(),
    Self = self(),
    [spawn(fun() -> notify(hits, {inc, 1}), Self ! done end) || _ <- [1, 2]],
    [receive done -> ok end || _ <- [1, 2]],
    value(hits).
