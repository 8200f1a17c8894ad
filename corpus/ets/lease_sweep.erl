%% Expiring leases: sweep/1 selects the leases older than a time and
%% deletes them one by one; renew/2 writes a lease's new time.  A lease
%% renewed between the select and its delete is deleted all the same.
%% Expected: R002 confirmed, non_serializable (a renewed lease is gone).
-module(lease_sweep).
-export([setup/0, teardown/0, sweep/1, renew/2, test/0]).

setup() ->
    ets:new(leases, [named_table, public]),
    ets:insert(leases, {l1, 5}),
    ok.

teardown() ->
    ets:delete(leases),
    ok.

sweep(Now) ->
    Expired = ets:select(leases, [{{'$1', '$2'}, [{'<', '$2', Now}], ['$1']}]),
%%            ^^^^^^^^^^ R002 #1 read: ets leases, every key (confirmed)
    [ets:delete(leases, L) || L <- Expired],
%%   ^^^^^^^^^^ R002 #1 write: deletes a lease renewed since the select
    length(Expired).

renew(Lease, Until) ->
    ets:insert(leases, {Lease, Until}).

test() ->
    setup(),
    Self = self(),
    P1 = spawn(fun() -> sweep(10), Self ! {done, self()} end),
    P2 = spawn(fun() -> renew(l1, 20), Self ! {done, self()} end),
    [receive {done, P} -> ok end || P <- [P1, P2]],
    Left = ets:tab2list(leases),
    teardown(),
    Left.
