%% Counters spread over shards: the shard tables are kept in a list of
%% {Index, Tid} tuples, and bump/2 picks its shard out of the list before
%% reading and writing the count.
%% Expected: R002 confirmed, non_serializable (two bumps, one lost).
-module(shard_list).
-export([new/0, bump/2, total/1, test/0]).

new() ->
    [{I, new_shard()} || I <- [0, 1]].

new_shard() ->
    T = ets:new(shard, [public]),
    ets:insert(T, {count, 0}),
    T.

shard(I, [{I, T} | _]) -> T;
shard(I, [_ | Rest]) -> shard(I, Rest).

bump(Shards, Key) ->
    Tab = shard(erlang:phash2(Key, 2), Shards),
    [{count, N}] = ets:lookup(Tab, count),
%%                 ^^^^^^^^^^ R002 #1 read: ets <tid>/count, the table from a list of tuples (confirmed)
    ets:insert(Tab, {count, N + 1}).
%%  ^^^^^^^^^^ R002 #1 write: the stale count plus one

total(Shards) ->
    lists:sum([ets:lookup_element(T, count, 2) || {_, T} <- Shards]).

test() ->
    Shards = new(),
    Self = self(),
    Pids = [spawn(fun() -> bump(Shards, user_1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    total(Shards).
