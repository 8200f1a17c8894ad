%% Page-hit counter kept in a public named table.  hit/1 reads the current
%% count and writes count + 1: two concurrent hits on the same page can both
%% read the same value, and one increment is lost.
%% Expected: R002 confirmed, non_serializable, bound 1 (two pairs, one per insert).
-module(hit_counter).
-export([setup/0, hit/1, hits/1, teardown/0, test/0]).

-define(TAB, hit_counter).

setup() ->
    ?TAB = ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

hit(Page) ->
    case ets:lookup(?TAB, Page) of
%%       ^^^^^^^^^^ R002 #1 #2 read: ets hit_counter/<Page> (confirmed, non_serializable)
        [] ->
            ets:insert(?TAB, {Page, 1});
%%          ^^^^^^^^^^ R002 #1 write: two first hits both store 1
        [{Page, N}] ->
            ets:insert(?TAB, {Page, N + 1})
%%          ^^^^^^^^^^ R002 #2 write: stale N + 1 overwrites a newer count
    end,
    ok.

hits(Page) ->
    case ets:lookup(?TAB, Page) of
        [{Page, N}] -> N;
        [] -> 0
    end.

test() ->
    setup(),
    hit(home),
    Self = self(),
    Pids = [spawn(fun() -> hit(home), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    N = hits(home),
    teardown(),
    N.
