%% Checks: erlang:send_after / timer:send_after ordering by delay, cancel_timer returns remaining time (only its type), start_timer timeout message shape.
-module(conc_timers).
-export([main/0]).

main() ->
    erlang:send_after(120, self(), third),
    erlang:send_after(10, self(), first),
    {ok, _} = timer:send_after(60, self(), second),
    Got = [receive M -> M after 500 -> missing end || _ <- [1, 2, 3]],
    io:format("~p~n", [Got]),
    T = erlang:send_after(1000, self(), never),
    Left = erlang:cancel_timer(T),
    io:format("cancel left is integer: ~p~n", [is_integer(Left)]),
    io:format("~p~n", [erlang:cancel_timer(T)]),
    io:format("~p~n", [receive never -> got_cancelled_msg after 50 -> nothing end]),
    Ref = erlang:start_timer(10, self(), payload),
    io:format("~p~n", [receive {timeout, Ref, P} -> {timeout, P} after 500 -> missing end]),
    {ok, TRef} = timer:apply_after(10, erlang, send, [self(), applied]),
    io:format("~p~n", [receive applied -> applied after 500 -> missing end]),
    io:format("~p~n", [timer:cancel(TRef)]),
    timer:sleep(5),
    ok.
