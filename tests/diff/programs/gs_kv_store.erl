%% Checks: a gen_server key-value store used by several concurrent clients; results collected and sorted; start without a name.
-module(gs_kv_store).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init(_) -> {ok, #{}}.

handle_call({put, K, V}, _From, M) -> {reply, maps:get(K, M, none), M#{K => V}};
handle_call({get, K}, _From, M) -> {reply, maps:find(K, M), M};
handle_call(dump, _From, M) -> {reply, lists:sort(maps:to_list(M)), M}.

handle_cast({incr, K}, M) -> {noreply, M#{K => maps:get(K, M, 0) + 1}}.

main() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    Self = self(),
    Clients = [spawn(fun() ->
                             gen_server:call(S, {put, {client, I}, I * I}),
                             [gen_server:cast(S, {incr, shared}) || _ <- lists:seq(1, 10)],
                             Self ! {done, I, gen_server:call(S, {get, {client, I}})}
                     end) || I <- lists:seq(1, 5)],
    Done = lists:sort([receive {done, I, R} -> {I, R} end || _ <- Clients]),
    io:format("~p~n", [Done]),
    io:format("~p~n", [gen_server:call(S, {get, shared})]),
    io:format("~p~n", [gen_server:call(S, {put, {client, 1}, replaced})]),
    io:format("~p~n", [gen_server:call(S, dump)]),
    gen_server:stop(S),
    is_process_alive(S).
