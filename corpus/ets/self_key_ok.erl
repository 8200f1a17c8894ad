%% A shared trace buffer where every process appends to its own row, keyed
%% by self().  The read-modify-write in note/1 looks like a lost update, but
%% two processes can never use the same key.  Expected: filtered.
-module(self_key_ok).
-export([setup/0, note/1, trace_of/1, teardown/0, test/0]).

-define(TAB, trace_buf).

setup() ->
    ets:new(?TAB, [named_table, public, {write_concurrency, true}]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

note(Event) ->
    Key = self(),
    Old = case ets:lookup(?TAB, Key) of
%%             ^^^^^^^^^^ R002 #1 read (filtered): key is the caller's own pid
              [{Key, Events}] -> Events;
              [] -> []
          end,
    ets:insert(?TAB, {Key, [Event | Old]}),
%%  ^^^^^^^^^^ R002 #1 write (filtered): no other process writes this key
    ok.

trace_of(Pid) ->
    case ets:lookup(?TAB, Pid) of
        [{Pid, Events}] -> lists:reverse(Events);
        [] -> []
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> note(start), note({step, N}), Self ! {done, self()} end)
            || N <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    Traces = [trace_of(P) || P <- Pids],
    teardown(),
    Traces.
