%% The look-alike of trace_stop: trace/2 and stop_trace/2 take their
%% arguments the same way and each reads and puts back a list of levels in
%% a public named ETS table, but each destination has a list of its own
%% ({traces, Dest}). The program's calls trace(console, debug) and
%% trace(file, info) name two destinations: stop_trace(console, debug) raced
%% by trace(file, info) works on another item and loses nothing.
%% Expected: R002 #1 (stop_trace/2) unconfirmed: stop_trace(console, debug)
%% is searched against its rival trace(file, info), which writes another
%% key (every interleaving explored).
%% R002 #2 (two trace/2 calls) confirmed.
-module(trace_stop_ok).
-export([init/0, trace/2, stop_trace/1, stop_trace/2, traces/0, test/0]).

-define(TAB, trace_stop_ok_cfg).

init() ->
    ets:new(?TAB, [named_table, public, set]),
    ets:insert(?TAB, {{traces, console}, []}),
    ets:insert(?TAB, {{traces, file}, []}),
    ok.

validate(Dest, Level) when is_atom(Dest), is_atom(Level) ->
    case lists:member(Level, [debug, info, error]) of
        true -> {ok, Level};
        false -> {error, invalid_level}
    end;
validate(_, _) ->
    {error, invalid_trace}.

trace(Dest, Level) ->
    case validate(Dest, Level) of
        {ok, T} ->
            [{_, Ts}] = ets:lookup(?TAB, {traces, Dest}),
%%                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 read: the traces, to add one
            case lists:member(T, Ts) of
                true -> ok;
                false -> ets:insert(?TAB, {{traces, Dest}, [T | Ts]})
%%                       ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 write: a trace added meanwhile is lost
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
            [{_, Ts}] = ets:lookup(?TAB, {traces, Dest}),
%%                      ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the traces, to remove one
            ets:insert(?TAB, {{traces, Dest}, lists:delete(T, Ts)}),
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: the old list minus one, a trace added meanwhile is lost
            ok;
        Error ->
            Error
    end.

traces() ->
    ets:tab2list(?TAB).

test() ->
    init(),
    {ok, L} = trace(console, debug),
    {ok, _} = trace(file, info),
    ok = stop_trace({console, L}),
    Ts = traces(),
    ets:delete(?TAB),
    Ts.
