%% A cluster-wide singleton scheduler registered with `global`.  start/0
%% checks global:whereis_name/1 and registers a new process when the name is
%% free; two nodes (or two local callers) can both see `undefined`, and the
%% loser's register_name/2 returns `no`, crashing the `yes =` match.
%% Expected: R005 confirmed, crash, bound 1.
-module(cluster_singleton).
-export([start/0, cast/1, stop/0, test/0]).

-define(NAME, {?MODULE, scheduler}).

start() ->
    case global:whereis_name(?NAME) of
%%       ^^^^^^^^^^^^^^^^^^^ R005 #1 read: global {cluster_singleton, scheduler} (confirmed, crash)
        undefined ->
            Pid = spawn(fun() -> loop([]) end),
            yes = global:register_name(?NAME, Pid),
%%                ^^^^^^^^^^^^^^^^^^^^ R005 #1 write: returns no for the second caller
            Pid;
        Pid ->
            Pid
    end.

cast(Job) ->
    global:send(?NAME, {job, Job}),
    ok.

stop() ->
    case global:whereis_name(?NAME) of
        undefined -> ok;
        Pid -> global:unregister_name(?NAME), Pid ! stop, ok
    end.

loop(Jobs) ->
    receive
        {job, J} -> loop([J | Jobs]);
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch start()} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> is_pid(R) end || P <- Pids],
    ok = cast(nightly_backup),
    stop(),
    Results.
