%% Storage half of badge: bump/1 is called from the badge server's
%% handle_call and also from badge:quick_grant/1 in any process, so two
%% bumps of one user can both read the old count and one is lost.
%% Expected: R002 reported.
-module(badge_store).
-export([bump/1, test/0]).

bump(User) ->
    N = case ets:lookup(badge_tab, User) of
%%           ^^^^^^^^^^ R002 #1 read: ets badge_tab/<User>, from the server and from quick_grant/1
            [{User, M}] -> M;
            [] -> 0
        end,
    ets:insert(badge_tab, {User, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: another bump may have written since the read
    N + 1.

test() ->
    badge:test().
