%% Checks: gen_server init returning {ok,S,{continue,C}}, handle_continue, reply with a timeout triggering handle_info(timeout), call with infinity, crash on a missing handle_continue clause.
-module(gs_timeouts_continue).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2, handle_continue/2]).

init(Log) -> {ok, [init | Log], {continue, warm_up}}.

handle_continue(warm_up, Log) -> {noreply, [continued | Log]}.

handle_call(log, _From, Log) -> {reply, lists:reverse(Log), Log};
handle_call(arm, _From, Log) -> {reply, armed, [armed | Log], 20};
handle_call(cont, _From, Log) -> {reply, ok, Log, {continue, after_reply}}.

handle_cast(_, Log) -> {noreply, Log}.

handle_info(timeout, Log) -> {noreply, [timed_out | Log]}.

main() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    io:format("~p~n", [gen_server:call(S, log, infinity)]),
    io:format("~p~n", [gen_server:call(S, arm)]),
    timer:sleep(200),
    io:format("~p~n", [gen_server:call(S, log)]),
    Ref = monitor(process, S),
    io:format("~p~n", [gen_server:call(S, cont)]),
    Down = receive {'DOWN', Ref, process, S, {Why, St}} when is_list(St) -> Why end,
    io:format("no handle_continue clause: ~p~n", [Down]),
    R = try gen_server:call(S, log) catch exit:{Reason, {gen_server, call, _}} -> Reason end,
    R.
