%% A job queue that hands out sequential ids from a `next_id` row.  Two
%% enqueues can read the same id; the second insert_new/2 of {job, Id} then
%% returns false and the match crashes.  The read of next_id and the write of
%% {job, Id} use keys that can never be equal (second pair, filtered).
%% Expected: R002 #1 confirmed, crash, bound 1; R002 #2 filtered.
-module(job_ids).
-export([setup/0, enqueue/1, job/1, teardown/0, test/0]).

-define(TAB, job_queue).

setup() ->
    ets:new(?TAB, [named_table, public, ordered_set]),
    ets:insert(?TAB, {next_id, 1}),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

enqueue(Job) ->
    Id = ets:lookup_element(?TAB, next_id, 2),
%%       ^^^^^^^^^^^^^^^^^^ R002 #1 #2 read: ets job_queue/next_id
    ets:insert(?TAB, {next_id, Id + 1}),
%%  ^^^^^^^^^^ R002 #1 write: two enqueues store the same next id (confirmed, crash)
    true = ets:insert_new(?TAB, {{job, Id}, Job}),
%%         ^^^^^^^^^^^^^^ R002 #2 write (filtered): key {job, Id} never equals next_id
    Id.

job(Id) ->
    case ets:lookup(?TAB, {job, Id}) of
        [{_, Job}] -> {ok, Job};
        [] -> error
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch enqueue({resize, N})} end) || N <- [1, 2]],
    Ids = lists:sort([receive {P, R} -> R end || P <- Pids]),
    Jobs = [job(I) || I <- Ids, is_integer(I)],
    teardown(),
    {Ids, length(Jobs)}.
