%% A fixed-window rate limiter: allow/1 reads the client's request count with
%% ets:lookup_element/3 (in count/1) and stores the new count (in record/2).
%% The read and the write are in different functions; concurrent requests from
%% one client lose increments and exceed the limit.
%% Expected: R002 confirmed, non_serializable, bound 1.
-module(rate_limiter).
-export([setup/0, allow/1, reset/1, teardown/0, test/0]).

-define(TAB, rate_limits).
-define(LIMIT, 5).

setup() ->
    ets:new(?TAB, [named_table, public, {read_concurrency, true}]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

count(Client) ->
    try
        ets:lookup_element(?TAB, Client, 2)
%%      ^^^^^^^^^^^^^^^^^^ R002 #1 read: ets rate_limits/<Client> (confirmed, non_serializable)
    catch
        error:badarg -> 0
    end.

record(Client, N) ->
    ets:insert(?TAB, {Client, N}).
%%  ^^^^^^^^^^ R002 #1 write: reached from allow/1 after count/1

allow(Client) ->
    N = count(Client),
    if
        N < ?LIMIT ->
            record(Client, N + 1),
            true;
        true ->
            false
    end.

reset(Client) ->
    ets:delete(?TAB, Client).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), [allow(api_key_1) || _ <- [1, 2, 3]]} end)
            || _ <- [1, 2]],
    Allowed = lists:append([receive {P, R} -> R end || P <- Pids]),
    Count = count(api_key_1),
    reset(api_key_1),
    teardown(),
    {length([A || A <- Allowed, A]), Count}.
