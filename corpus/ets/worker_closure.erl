%% A batch of workers that each record the job they finished: the table id
%% is captured by the fun each worker runs (a closure), and the workers read
%% and rewrite the shared done-list.
%% Expected: R002 confirmed, non_serializable (one worker's job is lost).
-module(worker_closure).
-export([run/1, test/0]).

run(Jobs) ->
    Tab = ets:new(batch, [public]),
    ets:insert(Tab, {done, []}),
    Self = self(),
    Pids = [spawn(fun() -> finish(Tab, J), Self ! {done, self()} end) || J <- Jobs],
    [receive {done, P} -> ok end || P <- Pids],
    [{done, Done}] = ets:lookup(Tab, done),
    lists:sort(Done).

finish(Tab, Job) ->
    [{done, Done}] = ets:lookup(Tab, done),
%%                   ^^^^^^^^^^ R002 #1 read: ets <tid>/done, the table captured by a fun (confirmed)
    ets:insert(Tab, {done, [Job | Done]}).
%%  ^^^^^^^^^^ R002 #1 write: a list missing the other worker's job

test() ->
    run([a, b]).
