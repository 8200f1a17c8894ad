%% Checks: a hand-written server loop with state, synchronous request/reply via refs, async notifications, and clean stop.
-module(conc_server_loop).
-export([main/0]).

start() -> spawn(fun() -> loop(#{}) end).

call(S, Req) ->
    Ref = make_ref(),
    S ! {call, self(), Ref, Req},
    receive {reply, Ref, R} -> R after 100 -> timeout end.

loop(State) ->
    receive
        {call, From, Ref, {set, K, V}} -> From ! {reply, Ref, ok}, loop(State#{K => V});
        {call, From, Ref, {get, K}} -> From ! {reply, Ref, maps:find(K, State)}, loop(State);
        {call, From, Ref, stop} -> From ! {reply, Ref, {stopped, maps:size(State)}};
        {notify, K} -> loop(maps:remove(K, State))
    end.

main() ->
    S = start(),
    io:format("~p~n", [call(S, {set, x, 1})]),
    io:format("~p~n", [call(S, {set, y, 2})]),
    io:format("~p~n", [call(S, {get, x})]),
    S ! {notify, x},
    io:format("~p~n", [call(S, {get, x})]),
    io:format("~p~n", [call(S, {get, y})]),
    io:format("~p~n", [call(S, stop)]),
    io:format("~p~n", [call(S, {get, y})]),
    is_process_alive(S).
