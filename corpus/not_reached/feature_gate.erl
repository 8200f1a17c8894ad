%% A metrics reporter started on demand, but only when the `metrics`
%% feature is switched on in the application environment. Nothing in the
%% program switches it on, so the whereis/register pair is never run.
%% Expected: R001 unconfirmed (not_reached): the read was never executed.
-module(feature_gate).
-export([ensure_reporter/0, report/1, test/0]).

ensure_reporter() ->
    case application:get_env(feature_gate, metrics) of
        {ok, true} ->
            case whereis(metrics_reporter) of
%%               ^^^^^^^ R001 #1 read: registry metrics_reporter (unconfirmed, not_reached)
                undefined ->
                    Pid = spawn(fun reporter/0),
                    register(metrics_reporter, Pid),
%%                  ^^^^^^^^ R001 #1 write: second caller gets badarg
                    {ok, Pid};
                Pid ->
                    {ok, Pid}
            end;
        _ ->
            disabled
    end.

report(Metric) ->
    case ensure_reporter() of
        {ok, Pid} -> Pid ! {metric, Metric}, ok;
        disabled -> ok
    end.

reporter() ->
    receive
        {metric, _} -> reporter();
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), report(requests)} end) || _ <- [1, 2]],
    [receive {P, R} -> R end || P <- Pids].
