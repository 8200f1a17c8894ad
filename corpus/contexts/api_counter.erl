%% The API of per-process counters (gproc's local counters in small, the
%% race of gproc-set_counter-527): a process registers its own counter with
%% reg/2 and sets it with set/2, which hands the key and its own pid to
%% api_counter_lib:do_set/3 (read the old value, insert the new one, add the
%% difference to the aggregate); incr/3 adds to the counter of the process
%% it names. The static pass's entry is the internal do_set/3, which reads
%% nothing when called with made-up arguments: the race is reached through
%% set/2, on a counter reg/2 made in the owner's own process, raced by
%% incr/3 naming the owner. Expected: R002 confirmed, non_serializable.
-module(api_counter).
-export([setup/0, reg/2, set/2, incr/3, test/0]).

setup() ->
    api_counter_lib:new_tab().

reg(Key, Value) ->
    api_counter_lib:insert(Key, Value, self()).

set(Key, Value) ->
    set_local(Key, Value).

set_local({c, _} = Key, Value) when is_integer(Value) ->
    api_counter_lib:do_set(Key, Value, self());
set_local(_, _) ->
    erlang:error(badarg).

incr(Key, Owner, N) when is_pid(Owner), is_integer(N) ->
    api_counter_lib:add(Key, N, Owner).

test() ->
    setup(),
    Self = self(),
    Owner = spawn(fun() ->
                          reg({c, hits}, 0),
                          Self ! registered,
                          receive go -> ok end,
                          set({c, hits}, 10),
                          Self ! done
                  end),
    receive registered -> ok end,
    Owner ! go,
    incr({c, hits}, Owner, 5),
    receive done -> ok end,
    Counter = ets:lookup_element(api_counters, {{c, hits}, Owner}, 2),
    Aggr = ets:lookup_element(api_counters, {aggr, hits}, 2),
    ets:delete(api_counters),
    {Counter, Aggr}.
