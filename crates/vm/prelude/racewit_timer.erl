%% racewit prelude: the process behind erlang:send_after/3.
-module(racewit_timer).
-export([run/4]).

run(T, Dest, Msg, _Ref) ->
    receive after T -> ok end,
    catch erlang:send(Dest, Msg),
    ok.
