%% Per-process gauges: each process registers its own gauge {Name, self()}
%% and only the owner sets it (set/2 reads the old value, inserts the new
%% one and adds the difference to the aggregate). Other processes may read
%% a gauge by naming its owner (peek/2), but nothing but the owner ever
%% writes it: the read and the insert of one gauge are never interleaved
%% with another write of it. do_set/3 is exported (as gproc_lib exports its
%% setter for a distributed peer) and so is reported; each worker that
%% makes its own gauge reaches the write, and nothing races it.
%% Expected: R002 unconfirmed.
-module(owner_gauge_ok).
-export([setup/0, reg/2, set/2, do_set/3, peek/2, test/0]).

-define(TAB, owner_gauges).

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
%%  ^^^^^^^^^^ R002 #1 write: only the owner writes its gauge
    ets:update_counter(?TAB, {aggr, Name}, Value - Old),
    true.

peek(Name, Owner) ->
    ets:lookup_element(?TAB, {Name, Owner}, 2).

test() ->
    setup(),
    Self = self(),
    Owner = spawn(fun() ->
                          reg(load, 0),
                          Self ! registered,
                          receive go -> ok end,
                          set(load, 10),
                          Self ! done
                  end),
    receive registered -> ok end,
    Owner ! go,
    Seen = peek(load, Owner),
    receive done -> ok end,
    ets:delete(?TAB),
    Seen.
