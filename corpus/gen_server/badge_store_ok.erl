%% Storage half of badge_ok: bump/1 is exported, yet its only caller in the
%% program is badge_ok's handle_call, so its read and write run in that one
%% registered server, serialised by its mailbox.
%% Expected: R002 filtered.
-module(badge_store_ok).
-export([bump/1, test/0]).

bump(User) ->
    N = case ets:lookup(badge_ok_tab, User) of
%%           ^^^^^^^^^^ R002 #1 read (filtered): bump/1 runs only in the badge_ok server
            [{User, M}] -> M;
            [] -> 0
        end,
    ets:insert(badge_ok_tab, {User, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write (filtered): only the badge_ok server runs bump/1
    N + 1.

%% bump/1 runs through the server: its test is the server's.
test() ->
    badge_ok:test().
