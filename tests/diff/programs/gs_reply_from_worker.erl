%% Checks: handle_call hands From to a spawned worker which calls gen_server:reply; the server stays responsive meanwhile.
-module(gs_reply_from_worker).
-behaviour(gen_server).
-export([main/0, init/1, handle_call/3, handle_cast/2]).

init([]) -> {ok, 0}.

handle_call({slow_square, X}, From, N) ->
    spawn(fun() -> timer:sleep(30), gen_server:reply(From, X * X) end),
    {noreply, N + 1};
handle_call(count, _From, N) ->
    {reply, N, N}.

handle_cast(_, S) -> {noreply, S}.

wait_count(S, N) ->
    case gen_server:call(S, count) of
        N -> ok;
        _ -> erlang:yield(), wait_count(S, N)
    end.

main() ->
    {ok, S} = gen_server:start(?MODULE, [], []),
    Self = self(),
    [spawn(fun() -> Self ! {answer, X, gen_server:call(S, {slow_square, X})} end) || X <- [3, 4, 5]],
    wait_count(S, 3),
    io:format("count while pending: ~p~n", [gen_server:call(S, count)]),
    Answers = lists:sort([receive {answer, X, A} -> {X, A} end || _ <- [1, 2, 3]]),
    io:format("~p~n", [Answers]),
    io:format("~p~n", [gen_server:call(S, {slow_square, 12})]),
    gen_server:stop(S).
