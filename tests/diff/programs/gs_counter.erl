%% Checks: gen_server start_link with a registered name, call, cast, handle_info, state threading, stop with terminate.
-module(gs_counter).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2, terminate/2]).

init(Start) -> {ok, Start}.

handle_call(get, _From, N) -> {reply, N, N};
handle_call({add, K}, _From, N) -> {reply, {old, N}, N + K};
handle_call(stop_me, _From, N) -> {stop, normal, stopping, N}.

handle_cast(inc, N) -> {noreply, N + 1};
handle_cast({set, V}, _N) -> {noreply, V}.

handle_info({bump, K}, N) -> {noreply, N + K};
handle_info(_Other, N) -> {noreply, N}.

terminate(Reason, N) ->
    io:format("terminate ~p with state ~p~n", [Reason, N]).

main() ->
    {ok, Pid} = gen_server:start_link({local, rw_counter}, ?MODULE, 10, []),
    io:format("~p~n", [whereis(rw_counter) =:= Pid]),
    io:format("~p~n", [gen_server:call(rw_counter, get)]),
    io:format("~p~n", [gen_server:call(rw_counter, {add, 5})]),
    ok = gen_server:cast(rw_counter, inc),
    ok = gen_server:cast(rw_counter, inc),
    rw_counter ! {bump, 100},
    rw_counter ! unknown_message,
    io:format("~p~n", [gen_server:call(rw_counter, get)]),
    gen_server:cast(rw_counter, {set, 0}),
    io:format("~p~n", [gen_server:call(Pid, get)]),
    Ref = monitor(process, Pid),
    io:format("~p~n", [gen_server:call(rw_counter, stop_me)]),
    receive {'DOWN', Ref, process, Pid, Why} -> io:format("down: ~p~n", [Why]) end,
    io:format("~p~n", [whereis(rw_counter)]),
    {ok, P2} = gen_server:start({local, rw_counter}, ?MODULE, 1, []),
    R = gen_server:stop(P2),
    {R, whereis(rw_counter)}.
