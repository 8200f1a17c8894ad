%% Checks: several outstanding requests tagged with refs; replies arrive in reverse order and are matched to their request by ref.
-module(conc_async_requests).
-export([main/0]).

server() ->
    receive
        {batch, Reqs} ->
            [From ! {reply, Ref, Q * 100} || {From, Ref, Q} <- lists:reverse(Reqs)],
            server();
        stop -> ok
    end.

main() ->
    S = spawn(fun server/0),
    Qs = [1, 2, 3, 4],
    Reqs = [{self(), make_ref(), Q} || Q <- Qs],
    S ! {batch, Reqs},
    Answers = [receive {reply, Ref, A} -> {Q, A} end || {_, Ref, Q} <- Reqs],
    io:format("~p~n", [Answers]),
    {messages, Left} = process_info(self(), messages),
    io:format("left: ~p~n", [length(Left)]),
    S ! stop,
    lists:sum([A || {_, A} <- Answers]).
