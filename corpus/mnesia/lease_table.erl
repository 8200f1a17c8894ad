%% Resource leases in mnesia.  A reaper deletes expired leases while holders
%% renew theirs: the reaper can match a lease, the holder renew it, and the
%% reaper delete the fresh lease.  renew/2 itself is check-then-write too: two
%% holders can both take a free lease (final state looks serial, both think
%% they hold it: both return ok).  Expected: #1 confirmed non_serializable; #2 confirmed, non_serializable.
-module(lease_table).
-export([setup/0, renew/2, reap/1, holder/1, teardown/0, test/0]).

-record(lease, {resource, owner, expires}).

-define(TTL, 100).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(lease, [{attributes, record_info(fields, lease)}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, lease}} -> ok
    end,
    ok = mnesia:wait_for_tables([lease], 5000).

teardown() ->
    mnesia:stop().

renew(Res, Now) ->
    case mnesia:dirty_read(lease, Res) of
%%       ^^^^^^^^^^^^^^^^^ R003 #2 read: mnesia lease/<Res> (confirmed, non_serializable)
        [#lease{owner = Other}] when Other =/= self() ->
            {error, held};
        _ ->
            mnesia:dirty_write(#lease{resource = Res, owner = self(), expires = Now + ?TTL}),
%%          ^^^^^^^^^^^^^^^^^^ R003 #2 write: two holders of one lease
            ok
    end.

reap(Now) ->
    Expired = [L || L <- mnesia:dirty_match_object(#lease{_ = '_'}),
%%                       ^^^^^^^^^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia lease, all rows (confirmed, non_serializable)
                    L#lease.expires =< Now],
    [mnesia:dirty_delete(lease, L#lease.resource) || L <- Expired],
%%   ^^^^^^^^^^^^^^^^^^^ R003 #1 write: deletes a lease renewed in between
    length(Expired).

holder(Res) ->
    case mnesia:dirty_read(lease, Res) of
        [#lease{owner = O}] -> O;
        [] -> none
    end.

test() ->
    setup(),
    Self = self(),
    Holder = spawn(fun() ->
                           ok = renew(printer, 0),
                           Self ! {renewed_once, self()},
                           receive again -> ok end,
                           Self ! {self(), renew(printer, 150)}
                   end),
    receive {renewed_once, Holder} -> ok end,
    Reaper = spawn(fun() -> Self ! {self(), reap(120)} end),
    Holder ! again,
    [receive {P, _} -> ok end || P <- [Holder, Reaper]],
    H = holder(printer) =:= Holder,
    teardown(),
    H.
