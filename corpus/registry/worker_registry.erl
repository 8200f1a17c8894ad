%% Per-shard workers registered under derived names (worker_1, worker_2, ...).
%% The lookup and the start live in separate functions; ensure_worker/1 joins
%% them, so two callers for the same shard race between lookup_worker/1 and
%% start_worker/1.  Expected: R001 confirmed, crash (badarg), bound 1.
-module(worker_registry).
-export([ensure_worker/1, lookup_worker/1, start_worker/1, submit/2, test/0]).

worker_name(Shard) when is_integer(Shard) ->
    list_to_atom("worker_" ++ integer_to_list(Shard)).

lookup_worker(Shard) ->
    whereis(worker_name(Shard)).
%%  ^^^^^^^ R001 #1 read: registry worker_<Shard> (confirmed, crash)

start_worker(Shard) ->
    Pid = spawn(fun() -> worker_loop(Shard, 0) end),
    true = register(worker_name(Shard), Pid),
%%         ^^^^^^^^ R001 #1 write: badarg when another caller registered the shard first
    Pid.

ensure_worker(Shard) ->
    case lookup_worker(Shard) of
        undefined -> start_worker(Shard);
        Pid -> Pid
    end.

submit(Shard, Job) ->
    Ref = make_ref(),
    ensure_worker(Shard) ! {job, self(), Ref, Job},
    receive
        {Ref, Result} -> Result
    after 1000 -> timeout
    end.

worker_loop(Shard, Done) ->
    receive
        {job, From, Ref, Job} when is_function(Job, 0) ->
            From ! {Ref, Job()},
            worker_loop(Shard, Done + 1);
        {stats, From} ->
            From ! {Shard, Done},
            worker_loop(Shard, Done);
        stop ->
            ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch submit(7, fun() -> N * N end)} end)
            || N <- [2, 3]],
    Results = [receive {P, R} -> R end || P <- Pids],
    catch worker_7 ! stop,
    Results.
