%% Checks: casts and info messages from one client are handled in send order, and a following call sees all of them.
-module(gs_cast_order).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

init([]) -> {ok, []}.

handle_cast(Msg, Log) -> {noreply, [{cast, Msg} | Log]}.
handle_info(Msg, Log) -> {noreply, [{info, Msg} | Log]}.
handle_call(log, _From, Log) -> {reply, lists:reverse(Log), []}.

main() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    gen_server:cast(S, 1),
    S ! 2,
    gen_server:cast(S, 3),
    erlang:send(S, 4),
    io:format("~p~n", [gen_server:call(S, log)]),
    [gen_server:cast(S, I) || I <- lists:seq(1, 20)],
    Log = gen_server:call(S, log),
    io:format("~p~n", [[I || {cast, I} <- Log] =:= lists:seq(1, 20)]),
    gen_server:abcast([node()], ignored_name, x),
    gen_server:stop(S).
