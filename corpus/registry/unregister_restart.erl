%% Hot restart of a named job scheduler: restart/0 looks the scheduler up,
%% unregisters it and registers a replacement.  Two concurrent restarts both
%% see the old pid; the second unregister/1 raises badarg on a name the first
%% already released.  The whereis -> register pair also interleaves, but a
%% register can only fail after an unregister failed first.
%% Expected: R001 #1 confirmed, crash, bound 1; R001 #2 confirmed, non_serializable (3 restarts).
-module(unregister_restart).
-export([start/0, restart/0, stop/0, test/0]).

-define(NAME, job_scheduler).

start() ->
    Pid = spawn(fun() -> sched_loop([]) end),
    register(?NAME, Pid),
    Pid.

restart() ->
    case whereis(?NAME) of
%%       ^^^^^^^ R001 #1 #2 read: registry job_scheduler
        undefined ->
            {error, not_running};
        Old ->
            unregister(?NAME),
%%          ^^^^^^^^^^ R001 #1 write: badarg when another restart already unregistered
            Old ! {handover, self()},
            Jobs = receive {jobs, J} -> J after 500 -> [] end,
            New = spawn(fun() -> sched_loop(Jobs) end),
            register(?NAME, New),
%%          ^^^^^^^^ R001 #2 write: re-registers after another restart replaced the server
            New
    end.

stop() ->
    case whereis(?NAME) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

sched_loop(Jobs) ->
    receive
        {add, Job} -> sched_loop([Job | Jobs]);
        {handover, To} -> To ! {jobs, Jobs};
        stop -> ok
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch restart()} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> is_pid(R) end || P <- Pids],
    stop(),
    Results.
