%% Checks: sys:get_state on a gen_server, sys:replace_state, gen_server:call to a named server after restart by the caller, multiple servers.
-module(gs_sys_state).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init(N) -> {ok, {count, N}}.

handle_call(incr, _From, {count, N}) -> {reply, N + 1, {count, N + 1}}.

handle_cast(_, S) -> {noreply, S}.

main() ->
    Names = [rw_s1, rw_s2, rw_s3],
    [{ok, _} = gen_server:start({local, Nm}, ?MODULE, I * 100, []) || {I, Nm} <- lists:zip([1, 2, 3], Names)],
    io:format("~p~n", [[gen_server:call(Nm, incr) || Nm <- Names]]),
    io:format("~p~n", [sys:get_state(rw_s2)]),
    sys:replace_state(rw_s2, fun({count, N}) -> {count, N * 2} end),
    io:format("~p~n", [gen_server:call(rw_s2, incr)]),
    ok = gen_server:stop(rw_s1),
    {ok, _} = gen_server:start({local, rw_s1}, ?MODULE, 0, []),
    io:format("~p~n", [gen_server:call(rw_s1, incr)]),
    [gen_server:stop(Nm) || Nm <- Names].
