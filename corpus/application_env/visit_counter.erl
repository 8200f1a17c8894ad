%% A visit counter kept in the application environment: count/0 reads the
%% value and sets it plus one. Two callers can read the same value, and one
%% visit is lost: the final count is one no serial run gives.
%% Expected: R007 confirmed, non_serializable, bound 1.
-module(visit_counter).
-export([count/0, total/0, test/0]).

count() ->
    N = case application:get_env(visit_counter, visits) of
%%           ^^^^^^^^^^^^^^^^^^^^ R007 #1 read: application visit_counter, key visits
            {ok, V} -> V;
            undefined -> 0
        end,
    application:set_env(visit_counter, visits, N + 1).
%%  ^^^^^^^^^^^^^^^^^^^^ R007 #1 write: stores a stale count + 1

total() ->
    application:get_env(visit_counter, visits, 0).

test() ->
    Self = self(),
    Pids = [spawn(fun() -> count(), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    Total = total(),
    application:unset_env(visit_counter, visits),
    Total.
