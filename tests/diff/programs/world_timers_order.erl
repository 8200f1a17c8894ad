%% Checks: timers: erlang:send_after/start_timer order by deadline, cancel_timer before expiry, timer:send_after and timer:apply_after.
-module(world_timers_order).
-export([main/0, note/1]).
main() ->
    erlang:send_after(120, self(), late),
    erlang:send_after(10, self(), early),
    R = erlang:start_timer(60, self(), mid),
    T = erlang:send_after(30, self(), cancelled),
    erlang:cancel_timer(T),
    {ok, _} = timer:send_after(90, self(), via_timer),
    {ok, _} = timer:apply_after(100, ?MODULE, note, [self()]),
    Got = [receive M -> M end || _ <- lists:seq(1, 5)],
    io:format("~p~n", [[case M of {timeout, R, X} -> {timeout, X}; _ -> M end || M <- Got]]),
    receive Extra -> io:format("extra ~p~n", [Extra]) after 200 -> ok end,
    ok.
note(Pid) -> Pid ! applied.
