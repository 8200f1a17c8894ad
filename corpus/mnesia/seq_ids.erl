%% Order numbers from a mnesia sequence table, spread over helpers: next_id/1
%% calls current/1 (dirty_read/1) and store/2 (dirty_write/2).  Two orders can
%% get the same number.  Expected: R003 confirmed, non_serializable, bound 1.
-module(seq_ids).
-export([setup/0, next_id/1, teardown/0, test/0]).

setup() ->
    ok = mnesia:start(),
    case mnesia:create_table(sequence, [{attributes, [name, value]}]) of
        {atomic, ok} -> ok;
        {aborted, {already_exists, sequence}} -> ok
    end,
    ok = mnesia:wait_for_tables([sequence], 5000).

teardown() ->
    mnesia:stop().

current(Seq) ->
    case mnesia:dirty_read({sequence, Seq}) of
%%       ^^^^^^^^^^^^^^^^^ R003 #1 read: mnesia sequence/<Seq> (confirmed, non_serializable)
        [{sequence, Seq, N}] -> N;
        [] -> 0
    end.

store(Seq, N) ->
    mnesia:dirty_write(sequence, {sequence, Seq, N}).
%%  ^^^^^^^^^^^^^^^^^^ R003 #1 write: reached from next_id/1 after current/1

next_id(Seq) ->
    N = current(Seq) + 1,
    ok = store(Seq, N),
    N.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), next_id(orders)} end) || _ <- [1, 2]],
    Ids = lists:sort([receive {P, I} -> I end || P <- Pids]),
    Last = current(orders),
    teardown(),
    {Ids, Last}.
