%% Per-process counters with an aggregate, as gproc keeps local counters:
%% a process registers its own counter {Name, self()}; set/2 (by the owner)
%% reads the old value, inserts the new one and adds the difference to the
%% aggregate; incr/3 lets any process add to another's counter by naming it.
%% An incr between set's read and insert is lost from the counter but kept
%% in the aggregate (do_set/3 is exported for a distributed peer, as in
%% gproc_lib). Expected: R002 confirmed, non_serializable.
-module(owner_counter).
-export([setup/0, reg/2, set/2, do_set/3, incr/3, test/0]).

-define(TAB, owner_counters).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

reg(Name, Value) ->
    true = ets:insert_new(?TAB, {{Name, self()}, Value}),
    ets:update_counter(?TAB, {aggr, Name}, Value, {{aggr, Name}, 0}),
    true.

set(Name, Value) ->
    do_set(Name, Value, self()).

do_set(Name, Value, Pid) ->
    Old = ets:lookup_element(?TAB, {Name, Pid}, 2),
%%        ^^^^^^^^^^^^^^^^^^ R002 #1 read: the owner's old value
    ets:insert(?TAB, {{Name, Pid}, Value}),
%%  ^^^^^^^^^^ R002 #1 write: overwrites an increment made in between
    ets:update_counter(?TAB, {aggr, Name}, Value - Old),
    true.

incr(Name, Owner, N) ->
    ets:update_counter(?TAB, {Name, Owner}, N),
    ets:update_counter(?TAB, {aggr, Name}, N).

test() ->
    setup(),
    Self = self(),
    Owner = spawn(fun() ->
                          reg(hits, 0),
                          Self ! registered,
                          receive go -> ok end,
                          set(hits, 10),
                          Self ! done
                  end),
    receive registered -> ok end,
    Owner ! go,
    incr(hits, Owner, 5),
    receive done -> ok end,
    Counter = ets:lookup_element(?TAB, {hits, Owner}, 2),
    Aggr = ets:lookup_element(?TAB, {aggr, hits}, 2),
    ets:delete(?TAB),
    {Counter, Aggr}.
