%% Checks: gen_server:call timeout exit {timeout,{gen_server,call,...}}, noproc for unregistered name, already_started, init returning {stop,R} and ignore.
-module(gs_call_errors).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init(ok) -> {ok, no_state};
init(fail) -> {stop, init_failed};
init(skip) -> ignore.

handle_call(slow, _From, S) -> timer:sleep(150), {reply, slow_done, S};
handle_call(fast, _From, S) -> {reply, fast_done, S}.

handle_cast(_, S) -> {noreply, S}.

main() ->
    {ok, Pid} = gen_server:start({local, rw_slow}, ?MODULE, ok, []),
    R1 = try gen_server:call(rw_slow, slow, 30) catch exit:E1 -> E1 end,
    io:format("~p~n", [R1]),
    io:format("~p~n", [gen_server:call(rw_slow, fast)]),
    R2 = try gen_server:call(rw_nobody_here, hello) catch exit:E2 -> E2 end,
    io:format("~p~n", [R2]),
    {error, {already_started, P}} = gen_server:start({local, rw_slow}, ?MODULE, ok, []),
    io:format("already_started same pid: ~p~n", [P =:= Pid]),
    io:format("~p~n", [gen_server:start(?MODULE, fail, [])]),
    io:format("~p~n", [gen_server:start(?MODULE, skip, [])]),
    process_flag(trap_exit, true),
    io:format("~p~n", [gen_server:start_link(?MODULE, fail, [])]),
    io:format("~p~n", [receive {'EXIT', _, Why} -> Why after 1000 -> no_exit end]),
    ok = gen_server:stop(rw_slow),
    R3 = try gen_server:call(rw_slow, fast) catch exit:E3 -> E3 end,
    R3.
