%% Checkout counts per pool: checkout/2 takes a #pool{} record, reads the
%% pool's count, runs the caller's fun on the pool's first worker, then
%% writes the count back plus one. No call in the program gives the record
%% or the fun, so the harness makes both up: a made-up `1` stops at the
%% record field access (badrecord), while a #pool{} with its declared
%% defaults and a fun of arity 1 reach the read, and two checkouts at once
%% count one.
%% Expected: R002 confirmed, non_serializable, arguments made up as a
%% record and a fun.
-module(pool_record).
-export([start/0, checkout/2, test/0]).

-record(pool, {name = default_pool, size = 4, workers = [w1, w2]}).

start() ->
    ets:new(pool_counts, [named_table, public, set]),
    ok.

checkout(Pool, Fun) ->
    Name = Pool#pool.name,
    [Worker | _] = Pool#pool.workers,
    N = case ets:lookup(pool_counts, Name) of
%%           ^^^^^^^^^^ R002 #1 read: the pool's checkout count (confirmed, non_serializable)
            [{Name, C}] -> C;
            [] -> 0
        end,
    Result = Fun(Worker),
    ets:insert(pool_counts, {Name, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: a concurrent checkout's count is lost
    Result.

test() ->
    start(),
    Pool = list_to_tuple([pool, p1, 2, [a]]),
    a = checkout(Pool, fun(W) -> W end),
    [{p1, 1}] = ets:lookup(pool_counts, p1),
    ets:delete(pool_counts),
    ok.
