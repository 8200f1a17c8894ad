%% racewit prelude: timer (delays are schedulable choices, time is virtual).
%%
%% OTP's timer runs one-shot applies and intervals in a timer_server that
%% kernel starts on demand; here each timer is a process of its own, which
%% does what the server would do for it: a one-shot apply spawns M:F(A)
%% when it fires, an interval does so (or sends) every Time ms until it is
%% cancelled or the process it belongs to (the caller of apply_interval/4,
%% the destination of send_interval/2,3) exits. Arguments are checked as
%% OTP 25 checks them ({error, badarg}). A reference names an OTP timer;
%% here a timer process stands in its place: {once, Pid}, {interval, Pid}.
-module(timer).
-export([sleep/1, send_after/2, send_after/3, send_interval/2, send_interval/3,
         apply_after/4, apply_interval/4, cancel/1, tc/1, tc/2, tc/3,
         seconds/1, minutes/1, hours/1, hms/3, exit_after/2, exit_after/3,
         kill_after/1, kill_after/2, now_diff/2]).

-define(valid_time(T), is_integer(T), T >= 0).
-define(valid_mfa(M, F, A), is_atom(M), is_atom(F), is_list(A)).

sleep(T) -> receive after T -> ok end.

apply_after(0, M, F, A) when ?valid_mfa(M, F, A) ->
    catch spawn(M, F, A),
    {ok, {instant, make_ref()}};
apply_after(T, M, F, A) when ?valid_time(T), ?valid_mfa(M, F, A) ->
    {ok, {once, spawn(fun() -> receive after T -> do_apply({M, F, A}) end end)}};
apply_after(_T, _M, _F, _A) ->
    {error, badarg}.

send_after(T, Msg) -> send_after(T, self(), Msg).

send_after(0, Dest, Msg) when is_pid(Dest); is_atom(Dest) ->
    Dest ! Msg,
    {ok, {instant, make_ref()}};
send_after(0, {Name, Node} = Dest, Msg) when is_atom(Name), is_atom(Node) ->
    Dest ! Msg,
    {ok, {instant, make_ref()}};
send_after(T, Pid, Msg) when ?valid_time(T), is_pid(Pid), node(Pid) =:= node() ->
    {ok, {send_local, erlang:send_after(T, Pid, Msg)}};
send_after(T, Dest, Msg) when is_pid(Dest); is_atom(Dest) ->
    apply_after(T, erlang, send, [Dest, Msg]);
send_after(T, {Name, Node} = Dest, Msg) when is_atom(Name), is_atom(Node) ->
    apply_after(T, erlang, send, [Dest, Msg]);
send_after(_T, _Dest, _Msg) ->
    {error, badarg}.

exit_after(T, Reason) -> exit_after(T, self(), Reason).
exit_after(T, Pid, Reason) -> apply_after(T, erlang, exit, [Pid, Reason]).
kill_after(T) -> exit_after(T, self(), kill).
kill_after(T, Pid) -> exit_after(T, Pid, kill).

apply_interval(T, M, F, A) when ?valid_time(T), ?valid_mfa(M, F, A) ->
    interval(T, self(), {M, F, A});
apply_interval(_T, _M, _F, _A) ->
    {error, badarg}.

send_interval(T, Msg) -> send_interval(T, self(), Msg).

send_interval(T, Dest, Msg) when ?valid_time(T), is_pid(Dest); ?valid_time(T), is_atom(Dest) ->
    interval(T, Dest, {erlang, send, [Dest, Msg]});
send_interval(T, {Name, Node} = Dest, Msg) when ?valid_time(T), is_atom(Name), is_atom(Node) ->
    interval(T, Dest, {erlang, send, [Dest, Msg]});
send_interval(_T, _Dest, _Msg) ->
    {error, badarg}.

%% The interval belongs to Owner: it ends when Owner exits (at once when
%% Owner is a name nothing is registered under, as a monitor says).
interval(T, Owner, MFA) ->
    {ok, {interval, spawn(fun() ->
                                  Ref = erlang:monitor(process, Owner),
                                  repeat(T, Ref, MFA)
                          end)}}.

repeat(T, Ref, MFA) ->
    receive
        {'DOWN', Ref, process, _, _} -> ok
    after T ->
            do_apply(MFA),
            repeat(T, Ref, MFA)
    end.

%% As OTP's timer server applies: a send or an exit in place, anything else
%% in a process of its own; a failure is not the timer's.
do_apply({erlang, send, [Dest, Msg]}) -> catch erlang:send(Dest, Msg);
do_apply({erlang, exit, [Name, Reason]}) when is_atom(Name) ->
    catch exit(whereis(Name), Reason);
do_apply({erlang, exit, [Pid, Reason]}) -> catch exit(Pid, Reason);
do_apply({M, F, A}) -> catch spawn(M, F, A).

cancel({instant, Ref}) when is_reference(Ref) -> {ok, cancel};
cancel({send_local, Ref}) when is_reference(Ref) ->
    _ = erlang:cancel_timer(Ref),
    {ok, cancel};
cancel({Kind, Pid}) when (Kind =:= once orelse Kind =:= interval), is_pid(Pid) ->
    exit(Pid, kill),
    {ok, cancel};
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
