%% Workers claim jobs from a shared table.  member/2 is only a cheap fast
%% path; the claim itself is ets:insert_new/2, which is atomic, so a worker
%% that read a stale `false` just gets `false` back and moves on.
%% Expected: filtered (insert_new's false has a branch; it changes nothing).
-module(job_claim_ok).
-export([setup/0, claim/1, owner/1, teardown/0, test/0]).

-define(TAB, job_claims).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

claim(JobId) ->
    case ets:member(?TAB, JobId) of
%%       ^^^^^^^^^^ R002 #1 read (filtered): ets job_claims/<JobId>
        true ->
            {error, taken};
        false ->
            case ets:insert_new(?TAB, {JobId, self()}) of
%%               ^^^^^^^^^^^^^^ R002 #1 write (filtered): atomic, its false has a branch
                true -> ok;
                false -> {error, taken}
            end
    end.

owner(JobId) ->
    case ets:lookup(?TAB, JobId) of
        [{JobId, Pid}] -> Pid;
        [] -> none
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), claim(job_42)} end) || _ <- [1, 2]],
    Results = lists:sort([receive {P, R} -> R end || P <- Pids]),
    HasOwner = is_pid(owner(job_42)),
    teardown(),
    {Results, HasOwner}.
