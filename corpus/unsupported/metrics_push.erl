%% Request metrics counted in ETS and pushed to a collector over TCP after the
%% update.  The lost update happens before gen_tcp:connect/4, so the VM can
%% show it even though it cannot run the push itself.
%% Expected: R002 confirmed, non_serializable, bound 1 (unsupported call after
%% the write: gen_tcp:connect/4).
-module(metrics_push).
-export([setup/0, record/1, teardown/0, test/0]).

-define(TAB, push_metrics).

setup() ->
    ets:new(?TAB, [named_table, public]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

record(Metric) ->
    N = case ets:lookup(?TAB, Metric) of
%%           ^^^^^^^^^^ R002 #1 read: ets push_metrics/<Metric> (confirmed, non_serializable)
            [{Metric, C}] -> C;
            [] -> 0
        end,
    ets:insert(?TAB, {Metric, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: the race is complete before the push below
    push(Metric, N + 1).

push(Metric, Value) ->
    case gen_tcp:connect({127, 0, 0, 1}, 2003, [binary], 100) of
        {ok, Sock} ->
            Line = io_lib:format("~s ~b~n", [Metric, Value]),
            gen_tcp:send(Sock, Line),
            gen_tcp:close(Sock);
        {error, _} ->
            dropped
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> record(requests), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    [{requests, N}] = ets:lookup(?TAB, requests),
    teardown(),
    N.
