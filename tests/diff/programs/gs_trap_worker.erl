%% Checks: a gen_server that traps exits and spawn_links workers; worker deaths arrive in handle_info as 'EXIT' messages; results sorted.
-module(gs_trap_worker).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

init([]) ->
    process_flag(trap_exit, true),
    {ok, #{running => 0, exits => []}}.

handle_call({spawn, Reason}, _From, S = #{running := N}) ->
    spawn_link(fun() -> receive go -> exit(Reason) end end),
    {reply, ok, S#{running := N + 1}};
handle_call(exits, _From, S = #{exits := E}) ->
    {reply, lists:sort(E), S}.

handle_cast(_, S) -> {noreply, S}.

handle_info({'EXIT', _Pid, Reason}, S = #{running := N, exits := E}) ->
    {noreply, S#{running := N - 1, exits := [Reason | E]}}.

wait_idle(S) ->
    case maps:get(running, sys:get_state(S)) of
        0 -> ok;
        _ -> erlang:yield(), wait_idle(S)
    end.

main() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    [ok = gen_server:call(S, {spawn, R}) || R <- [normal, oops, {shutdown, x}, normal]],
    {links, Links} = process_info(S, links),
    [L ! go || L <- Links],
    wait_idle(S),
    io:format("~p~n", [gen_server:call(S, exits)]),
    io:format("~p~n", [maps:get(running, sys:get_state(S))]),
    gen_server:stop(S).
