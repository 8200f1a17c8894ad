%% Feature flags with a hit count each.  The table id travels in a map
%% (#{tab => Tid}), read back with maps:get/2 before the lookup and insert.
%% Expected: R002 confirmed, non_serializable (two hits, one lost).
-module(feature_flags_map).
-export([init/0, hit/2, hits/2, test/0]).

init() ->
    Tab = ets:new(flags, [public]),
    ets:insert(Tab, {dark_mode, on, 0}),
    #{tab => Tab, owner => self()}.

hit(Ctx, Flag) ->
    Tab = maps:get(tab, Ctx),
    [{Flag, State, N}] = ets:lookup(Tab, Flag),
%%                       ^^^^^^^^^^ R002 #1 read: ets <tid>/<Flag>, the table a map value (confirmed)
    ets:insert(Tab, {Flag, State, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: the hit count from a stale read
    State.

hits(#{tab := Tab}, Flag) ->
    ets:lookup_element(Tab, Flag, 3).

test() ->
    Ctx = init(),
    Self = self(),
    Pids = [spawn(fun() -> hit(Ctx, dark_mode), Self ! {done, self()} end) || _ <- [1, 2]],
    [receive {done, P} -> ok end || P <- Pids],
    hits(Ctx, dark_mode).
