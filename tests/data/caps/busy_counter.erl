%% A counter bumped many times by each caller; the lookup is followed by an
%% insert only past a limit the callers never reach (the bump itself is an
%% atomic update_counter), so the search finds no race and has a very large
%% space to go through. Each caller also keeps a large list in its process
%% dictionary. With small caps on time or memory, racewit must stop the
%% search and say which cap it hit.
-module(busy_counter).
-export([setup/0, bump_many/1, test/0]).

-define(LIMIT, 1000000).

setup() ->
    ets:new(busy, [named_table, public, set]),
    ets:insert(busy, {n, 0}),
    ok.

bump_many(K) ->
    put(ballast, lists:seq(1, 2000000)),
    bump(K).

bump(0) -> ok;
bump(K) ->
    case ets:lookup(busy, n) of
        [{n, N}] when N >= ?LIMIT -> ets:insert(busy, {n, 0});
        _ -> ets:update_counter(busy, n, 1)
    end,
    bump(K - 1).

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), bump_many(20)} end) || _ <- [1, 2, 3]],
    [receive {P, _} -> ok end || P <- Pids],
    ets:lookup(busy, n).
