%% A circuit breaker in ETS.  probe/1 moves the breaker to half_open, checks
%% the backends and closes it again; report_failure/0 reads the state and
%% writes the next one.  A failure report that reads half_open and writes
%% after the probe closed the breaker leaves it open: this needs a preemption
%% inside probe/1 and another inside report_failure/0.
%% Expected: R002 confirmed, non_serializable, bound 2 (bound 1 shows none).
-module(circuit_breaker).
-export([setup/0, probe/1, report_failure/0, state/0, teardown/0, test/0]).

-define(TAB, breaker).
-define(THRESHOLD, 3).

setup() ->
    ets:new(?TAB, [named_table, public]),
    ets:insert(?TAB, {state, {closed, 0}}),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

state() ->
    ets:lookup_element(?TAB, state, 2).

report_failure() ->
    [{state, S}] = ets:lookup(?TAB, state),
%%                 ^^^^^^^^^^ R002 #1 read: ets breaker/state (confirmed at bound 2, non_serializable)
    Next = case S of
               {closed, N} when N + 1 >= ?THRESHOLD -> open;
               {closed, N} -> {closed, N + 1};
               half_open -> open;
               open -> open
           end,
    ets:insert(?TAB, {state, Next}).
%%  ^^^^^^^^^^ R002 #1 write: reopens a breaker the probe has just closed

probe(Backends) ->
    ets:insert(?TAB, {state, half_open}),
    Healthy = lists:all(fun({_Name, Status}) -> Status =:= up end, Backends),
    ets:insert(?TAB, {state, case Healthy of true -> {closed, 0}; false -> open end}).

test() ->
    setup(),
    Self = self(),
    P1 = spawn(fun() -> probe([{db, up}, {cache, up}]), Self ! {done, self()} end),
    P2 = spawn(fun() -> report_failure(), Self ! {done, self()} end),
    [receive {done, P} -> ok end || P <- [P1, P2]],
    S = state(),
    teardown(),
    S.
