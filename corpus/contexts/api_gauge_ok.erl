%% The look-alike of api_counter: the same internal setter reached through
%% the API's set/2 on a gauge the caller registered for itself, but every
%% function of the API works on its caller's own gauge (bump/2 passes
%% self(), never another process's pid): nothing but the owner writes a
%% gauge, so its read and insert are never interleaved with another write
%% of it. Driven through set/2 with reg/2 in each worker's own process, the
%% workers reach the write on gauges of their own. Expected: R002
%% unconfirmed.
-module(api_gauge_ok).
-export([setup/0, reg/2, set/2, bump/2, test/0]).

setup() ->
    api_gauge_ok_lib:new_tab().

reg(Key, Value) ->
    api_gauge_ok_lib:insert(Key, Value, self()).

set(Key, Value) ->
    set_local(Key, Value).

set_local({g, _} = Key, Value) when is_integer(Value) ->
    api_gauge_ok_lib:do_set(Key, Value, self());
set_local(_, _) ->
    erlang:error(badarg).

bump(Key, N) when is_integer(N) ->
    api_gauge_ok_lib:add(Key, N, self()).

test() ->
    setup(),
    reg({g, load}, 0),
    bump({g, load}, 5),
    set({g, load}, 10),
    Gauge = ets:lookup_element(api_gauges, {{g, load}, self()}, 2),
    Aggr = ets:lookup_element(api_gauges, {aggr, load}, 2),
    ets:delete(api_gauges),
    {Gauge, Aggr}.
