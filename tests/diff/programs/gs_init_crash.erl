%% Checks: gen_server init crashing: start returns {error,Reason}; start_link with a trapping caller returns {error,R} and sends 'EXIT'; init timeout-free.
-module(gs_init_crash).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init(badmatch) -> {ok, _} = list_to_tuple([error, x]), {ok, s};
init(exit) -> exit(init_exit);
init(throw) -> throw({ok, thrown_state});
init(bad_return) -> what.

handle_call(state, _From, S) -> {reply, S, S}.
handle_cast(_, S) -> {noreply, S}.

strip({error, {R, St}}) when is_list(St) -> {error, R};
strip(Other) -> Other.

main() ->
    io:format("~p~n", [strip(gen_server:start(?MODULE, badmatch, []))]),
    io:format("~p~n", [strip(gen_server:start(?MODULE, exit, []))]),
    {ok, P} = gen_server:start(?MODULE, throw, []),
    io:format("~p~n", [gen_server:call(P, state)]),
    gen_server:stop(P),
    io:format("~p~n", [strip(gen_server:start(?MODULE, bad_return, []))]),
    process_flag(trap_exit, true),
    io:format("~p~n", [strip(gen_server:start_link(?MODULE, exit, []))]),
    io:format("~p~n", [receive {'EXIT', _, W} -> W after 1000 -> none end]),
    process_flag(trap_exit, false).
