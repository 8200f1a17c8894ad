%% Traces kept as one list under one key of a public named ETS table (lager's
%% {Sink, loglevel} traces): trace/2 adds one and stop_trace/2 removes one,
%% each reading the list and putting back a changed copy. Both take their
%% arguments the same way (validate/2 checks the destination and the level,
%% and only a valid pair reaches the list), so a harness that makes up a
%% level never reaches the read, and two stop_trace calls of one trace both
%% put back the same list. The program's own calls tell the way: trace/2 with the
%% values it passes makes the trace, then stop_trace/2 of it races a trace/2
%% of another trace, which is lost when it lands between stop_trace's read
%% and its write (no serial order loses it).
%% Expected: R002 #1 confirmed (non_serializable) for stop_trace/2 after
%% trace/2, raced by trace/2 of another of the program's values; R002 #2
%% (two trace/2 calls) confirmed too.
-module(trace_stop).
-export([init/0, trace/2, stop_trace/1, stop_trace/2, traces/0, test/0]).

-define(TAB, trace_stop_cfg).

init() ->
    ets:new(?TAB, [named_table, public, set]),
    ets:insert(?TAB, {traces, []}),
    ok.

validate(Dest, Level) when is_atom(Dest), is_atom(Level) ->
    case lists:member(Level, [debug, info, error]) of
        true -> {ok, {Dest, Level}};
        false -> {error, invalid_level}
    end;
validate(_, _) ->
    {error, invalid_trace}.

trace(Dest, Level) ->
    case validate(Dest, Level) of
        {ok, T} ->
            [{traces, Ts}] = ets:lookup(?TAB, traces),
%%                           ^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 read: the traces, to add one
            case lists:member(T, Ts) of
                true -> ok;
                false -> ets:insert(?TAB, {traces, [T | Ts]})
%%                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 write: a trace added meanwhile is lost
            end,
            {ok, T};
        Error ->
            Error
    end.

stop_trace({Dest, Level}) ->
    stop_trace(Dest, Level).

stop_trace(Dest, Level) ->
    case validate(Dest, Level) of
        {ok, T} ->
            [{traces, Ts}] = ets:lookup(?TAB, traces),
%%                           ^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the traces, to remove one
            ets:insert(?TAB, {traces, lists:delete(T, Ts)}),
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: the old list minus one, a trace added meanwhile is lost
            ok;
        Error ->
            Error
    end.

traces() ->
    [{traces, Ts}] = ets:lookup(?TAB, traces),
    Ts.

test() ->
    init(),
    {ok, T} = trace(console, debug),
    {ok, _} = trace(file, info),
    ok = stop_trace(T),
    Ts = traces(),
    ets:delete(?TAB),
    Ts.
