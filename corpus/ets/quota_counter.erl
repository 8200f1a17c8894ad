%% A download quota: take/1 checks the count against the limit, then
%% increments it with update_counter/3.  The increment is atomic, the check
%% before it is not: two takers at limit - 1 both pass.
%% Expected: R002 confirmed, non_serializable (the count ends over the limit).
-module(quota_counter).
-export([setup/0, teardown/0, take/1, count/1, test/0]).

-define(LIMIT, 3).

setup() ->
    ets:new(quota, [named_table, public]),
    ets:insert(quota, {bob, ?LIMIT - 1}),
    ok.

teardown() ->
    ets:delete(quota),
    ok.

take(User) ->
    [{User, N}] = ets:lookup(quota, User),
%%                ^^^^^^^^^^ R002 #1 read: ets quota/<User> (confirmed)
    case N < ?LIMIT of
        true -> ets:update_counter(quota, User, 1);
%%              ^^^^^^^^^^^^^^^^^^ R002 #1 write: increments past the limit
        false -> {error, quota_exceeded}
    end.

count(User) ->
    ets:lookup_element(quota, User, 2).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> take(bob), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    N = count(bob),
    teardown(),
    N.
