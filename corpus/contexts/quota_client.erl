%% A client that asks its server by name for the quota, then counts a use in
%% a public table the server made: take/1 reads the count and writes it
%% back plus one. Two takes can both read the same count: one use is lost.
%% The server must be up for take/1 to get that far (called while it is
%% down, every take dies with noproc); the program starts it with
%% quota_srv:start_link/0, so the harness does too.
%% Expected: R002 confirmed, non_serializable (two takes leave the count at
%% 1, where every serial order leaves 2).
-module(quota_client).
-export([take/1, test/0]).

take(User) ->
    Limit = gen_server:call(quota_srv, limit),
    Used = case ets:lookup(quota_used, User) of
%%              ^^^^^^^^^^ R002 #1 read: the uses counted so far
               [{_, N}] -> N;
               [] -> 0
           end,
    if
        Used < Limit ->
            ets:insert(quota_used, {User, Used + 1}),
%%          ^^^^^^^^^^ R002 #1 write: another take counted a use meanwhile
            ok;
        true ->
            {error, over_quota}
    end.

test() ->
    {ok, Pid} = quota_srv:start_link(),
    unlink(Pid),
    ok = take(alice),
    ok = take(alice),
    [{alice, 2}] = ets:lookup(quota_used, alice),
    exit(Pid, kill),
    ok.
