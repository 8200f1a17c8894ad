%% A counter bumped from 30 places: bump/1 is called by 30 functions with
%% 30 different keys.  How many callers it has changes nothing: its own
%% lookup and insert race all the same.
%% Expected: R002 confirmed, non_serializable.
-module(bump_callers).
-export([setup/0, teardown/0, bump/1, test/0]).
-export([c1/0, c2/0, c3/0, c4/0, c5/0, c6/0, c7/0, c8/0, c9/0, c10/0,
         c11/0, c12/0, c13/0, c14/0, c15/0, c16/0, c17/0, c18/0, c19/0, c20/0,
         c21/0, c22/0, c23/0, c24/0, c25/0, c26/0, c27/0, c28/0, c29/0, c30/0]).

setup() ->
    ets:new(hits, [named_table, public]),
    ok.

teardown() ->
    ets:delete(hits),
    ok.

bump(Key) ->
    N = case ets:lookup(hits, Key) of
%%           ^^^^^^^^^^ R002 #1 read: ets hits/<Key>, 30 callers (confirmed)
            [] -> 0;
            [{Key, V}] -> V
        end,
    ets:insert(hits, {Key, N + 1}).
%%  ^^^^^^^^^^ R002 #1 write: a count from before the other bump

c1() -> bump(k1).  c2() -> bump(k2).  c3() -> bump(k3).  c4() -> bump(k4).
c5() -> bump(k5).  c6() -> bump(k6).  c7() -> bump(k7).  c8() -> bump(k8).
c9() -> bump(k9).  c10() -> bump(k10). c11() -> bump(k11). c12() -> bump(k12).
c13() -> bump(k13). c14() -> bump(k14). c15() -> bump(k15). c16() -> bump(k16).
c17() -> bump(k17). c18() -> bump(k18). c19() -> bump(k19). c20() -> bump(k20).
c21() -> bump(k21). c22() -> bump(k22). c23() -> bump(k23). c24() -> bump(k24).
c25() -> bump(k25). c26() -> bump(k26). c27() -> bump(k27). c28() -> bump(k28).
c29() -> bump(k29). c30() -> bump(k30).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> bump(k1), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    [{k1, N}] = ets:lookup(hits, k1),
    teardown(),
    N.
