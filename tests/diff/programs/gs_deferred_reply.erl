%% Checks: handle_call returning {noreply,S} and replying later with gen_server:reply from handle_info; several waiting callers.
-module(gs_deferred_reply).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2, handle_info/2]).

init([]) -> {ok, []}.

handle_call({wait, Tag}, From, Waiting) ->
    {noreply, [{Tag, From} | Waiting]};
handle_call(count, _From, Waiting) ->
    {reply, length(Waiting), Waiting}.

handle_cast(_, S) -> {noreply, S}.

handle_info(release_all, Waiting) ->
    [gen_server:reply(From, {released, Tag}) || {Tag, From} <- Waiting],
    {noreply, []}.

main() ->
    {ok, S} = gen_server:start_link(?MODULE, [], []),
    Self = self(),
    [spawn(fun() -> Self ! {caller, T, gen_server:call(S, {wait, T})} end) || T <- [a, b, c]],
    wait_count(S, 3),
    io:format("waiting: ~p~n", [gen_server:call(S, count)]),
    S ! release_all,
    Replies = lists:sort([receive {caller, T, R} -> {T, R} end || _ <- [1, 2, 3]]),
    io:format("~p~n", [Replies]),
    io:format("waiting: ~p~n", [gen_server:call(S, count)]),
    unlink(S),
    gen_server:stop(S).

wait_count(S, N) ->
    case gen_server:call(S, count) of
        N -> ok;
        _ -> timer:sleep(5), wait_count(S, N)
    end.
