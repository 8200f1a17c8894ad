%% Three mnesia transactions increment one counter; each also logs with a
%% dirty write in the middle.  The dirty write takes no lock, so other
%% processes may run there, but the counter's read and write are
%% transactional: mnesia's locks keep the increments whole.
%% Expected: explore finds no failure.
-module(tx_locks_ok).
-export([test/0]).

-record(counter, {key, value = 0}).
-record(log, {who, saw}).

incr(Who) ->
    {atomic, _} =
        mnesia:transaction(
          fun() ->
                  [#counter{value = V}] = mnesia:read(counter, hits),
                  mnesia:dirty_write(#log{who = Who, saw = V}),
                  mnesia:write(#counter{key = hits, value = V + 1})
          end).

test() ->
    ok = mnesia:start(),
    {atomic, ok} = mnesia:create_table(counter, [{attributes, record_info(fields, counter)}]),
    {atomic, ok} = mnesia:create_table(log, [{attributes, record_info(fields, log)}]),
    ok = mnesia:dirty_write(#counter{key = hits, value = 0}),
    Self = self(),
    Pids = [spawn(fun() -> incr(N), Self ! {self(), done} end) || N <- [1, 2, 3]],
    [receive {P, done} -> ok end || P <- Pids],
    [#counter{value = 3}] = mnesia:dirty_read(counter, hits),
    mnesia:stop(),
    ok.
