%% Leaderboard points added "in a transaction" -- but the body uses dirty
%% operations, which take no locks and are not part of the transaction.  The
%% wrapper gives no atomicity, so concurrent awards still lose points.
%% Expected: R003 confirmed, non_serializable, bound 1.
-module(dirty_in_tx).
-export([setup/0, award/2, points/1, teardown/0, test/0]).

-record(score, {player, points = 0}).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(score, [{attributes, record_info(fields, score)}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, score}} -> ok
    end,
    ok = mnesia:wait_for_tables([score], 5000).

teardown() ->
    mnesia:stop().

award(Player, Points) ->
    {atomic, New} =
        mnesia:transaction(
          fun() ->
                  Old = case mnesia:dirty_read(score, Player) of
%%                           ^^^^^^^^^^^^^^^^^ R003 #1 read: dirty inside a transaction, no lock (confirmed)
                            [#score{points = P}] -> P;
                            [] -> 0
                        end,
                  mnesia:dirty_write(#score{player = Player, points = Old + Points}),
%%                ^^^^^^^^^^^^^^^^^^ R003 #1 write: lost update despite the transaction
                  Old + Points
          end),
    New.

points(Player) ->
    case mnesia:dirty_read(score, Player) of
        [#score{points = P}] -> P;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), award(kim, N)} end) || N <- [3, 4]],
    [receive {P, _} -> ok end || P <- Pids],
    Total = points(kim),
    teardown(),
    Total.
