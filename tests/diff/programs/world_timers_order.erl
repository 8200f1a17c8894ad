%% Checks: timers: erlang:send_after/start_timer order by deadline, cancel_timer before expiry, timer:send_after and timer:apply_after.
%% Deadlines are 100 ms apart: timer:apply_after goes through the timer server and a spawned
%% process, which a loaded machine can delay by tens of milliseconds.
-module(world_timers_order).
-export([main/0, note/1]).
main() ->
    erlang:send_after(400, self(), late),
    erlang:send_after(10, self(), early),
    R = erlang:start_timer(100, self(), mid),
    T = erlang:send_after(50, self(), cancelled),
    erlang:cancel_timer(T),
    {ok, _} = timer:send_after(200, self(), via_timer),
    {ok, _} = timer:apply_after(300, ?MODULE, note, [self()]),
    Got = [receive M -> M end || _ <- lists:seq(1, 5)],
    io:format("~p~n", [[case M of {timeout, R, X} -> {timeout, X}; _ -> M end || M <- Got]]),
    receive Extra -> io:format("extra ~p~n", [Extra]) after 200 -> ok end,
    ok.
note(Pid) -> Pid ! applied.
