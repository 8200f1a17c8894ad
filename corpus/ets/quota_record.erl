%% Per-user upload quotas.  The table id lives in a #quota{} record that
%% the caller keeps and passes to charge/3: the table reaches the lookup and
%% the insert through a record field.
%% Expected: R002 confirmed, non_serializable (two charges, one lost).
-module(quota_record).
-export([new/0, charge/3, used/2, test/0]).

-record(quota, {tab, limit = 100}).

new() ->
    Tab = ets:new(quota_used, [public]),
    ets:insert(Tab, {alice, 0}),
    #quota{tab = Tab}.

charge(#quota{tab = Tab, limit = Limit}, User, Bytes) ->
    [{User, Used}] = ets:lookup(Tab, User),
%%                   ^^^^^^^^^^ R002 #1 read: ets <tid>/<User>, the table a record field (confirmed)
    case Used + Bytes =< Limit of
        true -> ets:insert(Tab, {User, Used + Bytes});
%%              ^^^^^^^^^^ R002 #1 write: writes a total computed from a stale Used
        false -> {error, over_quota}
    end.

used(#quota{tab = Tab}, User) ->
    ets:lookup_element(Tab, User, 2).

test() ->
    Q = new(),
    Self = self(),
    Pids = [spawn(fun() -> charge(Q, alice, 10), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    used(Q, alice).
