%% Feature flags loaded once at boot into persistent_term and only read
%% afterwards.  enabled/1 reads on the hot path; load/1 writes without reading
%% first, and nothing calls it from a path that read the flags.
%% Expected: filtered (no control-flow path from the read to the write).
-module(boot_flags_ok).
-export([load/1, enabled/1, unload/0, test/0]).

-define(KEY, {?MODULE, flags}).

load(Flags) when is_list(Flags) ->
    persistent_term:put(?KEY, maps:from_list([{F, true} || F <- Flags])),
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 write (filtered): boot-time write, no read before it
    ok.

enabled(Flag) ->
    Flags = persistent_term:get(?KEY, #{}),
%%          ^^^^^^^^^^^^^^^^^^^ R006 #1 read (filtered): read-only path
    maps:get(Flag, Flags, false).

unload() ->
    persistent_term:erase(?KEY),
    ok.

test() ->
    ok = load([dark_mode, new_checkout]),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), enabled(F)} end) || F <- [dark_mode, beta_api]],
    Results = [receive {P, R} -> R end || P <- Pids],
    unload(),
    Results.
