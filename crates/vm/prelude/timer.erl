%% racewit prelude: timer (delays are schedulable choices, time is virtual).
-module(timer).
-export([sleep/1, send_after/2, send_after/3, send_interval/2, send_interval/3,
         apply_after/4, cancel/1, tc/1, tc/2, tc/3, seconds/1, minutes/1, hours/1,
         hms/3, exit_after/2, exit_after/3, kill_after/1, kill_after/2, now_diff/2]).

sleep(T) -> receive after T -> ok end.

send_after(T, Msg) -> send_after(T, self(), Msg).
send_after(T, Dest, Msg) -> {ok, {racewit_tref, erlang:send_after(T, Dest, Msg)}}.

send_interval(T, Msg) -> send_interval(T, self(), Msg).
send_interval(T, Dest, Msg) ->
    Pid = spawn(fun() -> interval(T, Dest, Msg) end),
    {ok, {racewit_interval, Pid}}.
interval(T, Dest, Msg) ->
    receive after T -> ok end,
    catch erlang:send(Dest, Msg),
    interval(T, Dest, Msg).

apply_after(T, M, F, A) ->
    Pid = spawn(fun() -> receive after T -> apply(M, F, A) end end),
    {ok, {racewit_interval, Pid}}.

exit_after(T, Reason) -> exit_after(T, self(), Reason).
exit_after(T, Pid, Reason) ->
    P = spawn(fun() -> receive after T -> exit(Pid, Reason) end end),
    {ok, {racewit_interval, P}}.
kill_after(T) -> exit_after(T, self(), kill).
kill_after(T, Pid) -> exit_after(T, Pid, kill).

cancel({racewit_tref, Ref}) -> erlang:cancel_timer(Ref), {ok, cancel};
cancel({racewit_interval, Pid}) -> exit(Pid, kill), {ok, cancel};
cancel(_) -> {error, badarg}.

tc(F) -> {0, F()}.
tc(F, A) -> {0, apply(F, A)}.
tc(M, F, A) -> {0, apply(M, F, A)}.

seconds(S) -> 1000 * S.
minutes(M) -> 60000 * M.
hours(H) -> 3600000 * H.
hms(H, M, S) -> hours(H) + minutes(M) + seconds(S).

now_diff({A2, B2, C2}, {A1, B1, C1}) ->
    ((A2 - A1) * 1000000 + B2 - B1) * 1000000 + C2 - C1.
