%% Checks: a gen_server that calls another gen_server inside handle_call (front -> back), results and call counts on both sides.
-module(gs_nested_calls).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init(Role) -> {ok, {Role, 0}}.

handle_call({lookup, K}, _From, {front, N}) ->
    V = gen_server:call(rw_back, {fetch, K}),
    {reply, {front_saw, V}, {front, N + 1}};
handle_call({fetch, K}, _From, {back, N}) ->
    {reply, {value, K, K * 2}, {back, N + 1}};
handle_call(count, _From, {Role, N} = S) ->
    {reply, {Role, N}, S}.

handle_cast(_, S) -> {noreply, S}.

main() ->
    {ok, _} = gen_server:start({local, rw_front}, ?MODULE, front, []),
    {ok, _} = gen_server:start({local, rw_back}, ?MODULE, back, []),
    io:format("~p~n", [[gen_server:call(rw_front, {lookup, K}) || K <- [1, 2, 3]]]),
    io:format("~p~n", [gen_server:call(rw_back, {fetch, 10})]),
    io:format("~p ~p~n", [gen_server:call(rw_front, count), gen_server:call(rw_back, count)]),
    ok = gen_server:stop(rw_back),
    R = try gen_server:call(rw_front, {lookup, 4}) catch exit:{Reason, _} -> Reason end,
    io:format("~p~n", [R]),
    {whereis(rw_front), whereis(rw_back)}.
