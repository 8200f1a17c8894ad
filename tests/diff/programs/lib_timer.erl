%% Checks: timer's argument checks ({error, badarg}), apply_after/4 (0 and later), send_after/2,3 to a pid and a registered name, exit_after/3, apply_interval/4 and send_interval/2,3 repeating until cancelled, an interval ending with the process it belongs to, cancel/1 of each kind of reference and of a bad one; a receive ... after keeps its deadline while messages it does not take arrive (an interval ticks into the mailbox during each wait).
-module(lib_timer).
-export([main/0, tell/2]).

tell(Pid, Msg) -> Pid ! Msg.

main() ->
    Self = self(),
    io:format("~p~n", [[timer:apply_after(-1, ?MODULE, tell, []),
                        timer:apply_after(10, "m", tell, []),
                        timer:apply_interval(x, ?MODULE, tell, []),
                        timer:send_after(10, "p", m),
                        timer:send_interval(-5, Self, m),
                        timer:cancel(nonsense)]]),
    {ok, _} = timer:apply_after(0, ?MODULE, tell, [Self, now]),
    io:format("~p~n", [receive now -> now after 1000 -> none end]),
    {ok, _} = timer:apply_after(20, ?MODULE, tell, [Self, later]),
    {ok, _} = timer:send_after(5, first),
    io:format("~p~n", [[receive M -> M after 1000 -> none end || _ <- [1, 2]]]),
    register(lib_timer_box, Self),
    {ok, _} = timer:send_after(5, lib_timer_box, by_name),
    io:format("~p~n", [receive by_name -> by_name after 1000 -> none end]),
    {ok, TI} = timer:apply_interval(10, ?MODULE, tell, [Self, tick]),
    Ticks = [receive tick -> tick after 1000 -> none end || _ <- [1, 2, 3]],
    io:format("~p ~p~n", [Ticks, timer:cancel(TI)]),
    receive after 50 -> ok end,
    flush(tick, 0),
    receive after 50 -> ok end,
    io:format("~p~n", [flush(tick, 0)]),
    {ok, TS} = timer:send_interval(10, ping),
    Pings = [receive ping -> ping after 1000 -> none end || _ <- [1, 2]],
    io:format("~p ~p~n", [Pings, timer:cancel(TS)]),
    receive after 50 -> ok end,
    flush(ping, 0),
    Owner = spawn(fun() -> receive stop -> ok end end),
    {ok, _} = timer:apply_interval(10, ?MODULE, tell, [Self, owned]),
    {ok, _} = timer:send_interval(10, Owner, hello),
    Owned = spawn(fun() ->
                          {ok, _} = timer:apply_interval(10, ?MODULE, tell, [Self, gone]),
                          receive stop -> ok end
                  end),
    receive owned -> ok end,
    receive gone -> ok end,
    Owned ! stop,
    Owner ! stop,
    receive after 60 -> ok end,
    flush(gone, 0),
    receive after 60 -> ok end,
    io:format("~p~n", [flush(gone, 0)]),
    {ok, Victim} = {ok, spawn(fun() -> receive after infinity -> ok end end)},
    Ref = monitor(process, Victim),
    {ok, _} = timer:exit_after(5, Victim, bye),
    io:format("~p~n", [receive {'DOWN', Ref, process, Victim, R} -> R after 1000 -> none end]),
    {ok, TO} = timer:apply_after(5000, ?MODULE, tell, [Self, never]),
    {ok, TL} = timer:send_after(5000, never),
    io:format("~p~n", [[timer:cancel(TO), timer:cancel(TL)]]),
    ok.

flush(Msg, N) ->
    receive Msg -> flush(Msg, N + 1) after 0 -> N end.
