%% Checks: gen_server crashing in handle_call: caller gets exit with the reason, terminate/2 runs, linked trapping parent gets 'EXIT'.
-module(gs_terminate_trap).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, terminate/2]).

init(Parent) -> {ok, Parent}.

handle_call(crash, _From, _S) -> error(deliberate);
handle_call(bad_return, _From, _S) -> {what, ever};
handle_call(ping, _From, S) -> {reply, pong, S}.

handle_cast({stop, R}, S) -> {stop, R, S}.

terminate(Reason, Parent) ->
    Parent ! {terminated, case Reason of {R, St} when is_list(St) -> R; R -> R end}.

main() ->
    process_flag(trap_exit, true),
    {ok, S1} = gen_server:start_link(?MODULE, self(), []),
    io:format("~p~n", [gen_server:call(S1, ping)]),
    R1 = try gen_server:call(S1, crash) catch exit:{{Rsn, _}, {gen_server, call, [_, crash]}} -> Rsn end,
    io:format("caller saw: ~p~n", [R1]),
    io:format("~p~n", [receive {terminated, T} -> T end]),
    io:format("~p~n", [receive {'EXIT', S1, {X, _}} -> X end]),
    {ok, S2} = gen_server:start_link(?MODULE, self(), []),
    R2 = try gen_server:call(S2, bad_return) catch exit:{Rsn2, _} -> Rsn2 end,
    io:format("~p~n", [R2]),
    io:format("~p~n", [receive {terminated, T2} -> T2 end]),
    io:format("~p~n", [receive {'EXIT', S2, X2} -> X2 end]),
    {ok, S3} = gen_server:start_link(?MODULE, self(), []),
    gen_server:cast(S3, {stop, {shutdown, done}}),
    io:format("~p~n", [receive {terminated, T3} -> T3 end]),
    receive {'EXIT', S3, X3} -> X3 end.
