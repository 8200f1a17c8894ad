%% Event statistics updated in batches: record_batch/1 walks the events with
%% lists:foreach/2 and does the read-modify-write inside the fun it passes.
%% Two batches with the same event kind race inside that fun.
%% Expected: R002 confirmed, non_serializable, bound 1.
-module(stats_foreach).
-export([setup/0, record_batch/1, count/1, teardown/0, test/0]).

-define(TAB, event_stats).

setup() ->
    ets:new(?TAB, [named_table, public, {write_concurrency, true}]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

event_key({Kind, _Payload}) -> Kind;
event_key(Kind) when is_atom(Kind) -> Kind.

record_batch(Events) ->
    lists:foreach(
      fun(Event) ->
              Key = event_key(Event),
              N = case ets:lookup(?TAB, Key) of
%%                     ^^^^^^^^^^ R002 #1 read: ets event_stats/<Kind>, in a fun given to lists:foreach/2
                      [{Key, C}] -> C;
                      [] -> 0
                  end,
              ets:insert(?TAB, {Key, N + 1})
%%            ^^^^^^^^^^ R002 #1 write: lost update (confirmed, non_serializable)
      end,
      Events).

count(Kind) ->
    case ets:lookup(?TAB, Kind) of
        [{Kind, C}] -> C;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Batches = [[{click, 1}, view], [click, {view, 2}, click]],
    Pids = [spawn(fun() -> record_batch(B), Self ! {done, self()} end) || B <- Batches],
    [receive {done, P} -> ok end || P <- Pids],
    Counts = {count(click), count(view)},
    teardown(),
    Counts.
