%% Retries with an attempt counter per request in a public table (so that an
%% operator can list requests in flight).  Each request's row is keyed by a
%% fresh make_ref(), so no two processes ever read or write the same row.
%% Expected: filtered (both pairs: keys are unique references).
-module(retry_ref_ok).
-export([setup/0, call_with_retry/1, in_flight/0, teardown/0, test/0]).

-define(TAB, attempts).
-define(MAX_RETRIES, 3).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

call_with_retry(Fun) when is_function(Fun, 1) ->
    retry(make_ref(), Fun).

retry(Id, Fun) ->
    N = case ets:lookup(?TAB, Id) of
%%           ^^^^^^^^^^ R002 #1 #2 read (filtered): key is this request's own make_ref()
            [] -> 0;
            [{Id, C}] -> C
        end,
    ets:insert(?TAB, {Id, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write (filtered): same fresh key, private to this call
    case Fun(N) of
        {error, _} when N < ?MAX_RETRIES ->
            retry(Id, Fun);
        Result ->
            ets:delete(?TAB, Id),
%%          ^^^^^^^^^^ R002 #2 write (filtered): removes only this request's row
            Result
    end.

in_flight() ->
    ets:info(?TAB, size).

test() ->
    setup(),
    Self = self(),
    Flaky = fun(Attempt) when Attempt < 2 -> {error, busy}; (Attempt) -> {ok, Attempt} end,
    Pids = [spawn(fun() -> Self ! {self(), call_with_retry(Flaky)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> R end || P <- Pids],
    Left = in_flight(),
    teardown(),
    {Results, Left}.
