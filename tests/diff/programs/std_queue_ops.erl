%% Checks: OTP's queue from source: in/out/in_r/out_r, peek, split, join, filter, reverse, member, len, Okasaki API, errors.
-module(std_queue_ops).
-export([main/0]).
main() ->
    Q = queue:from_list([1, 2, 3]),
    Q2 = queue:in_r(0, queue:in(4, Q)),
    io:format("~p~n", [queue:to_list(Q2)]),
    {{value, A}, Q3} = queue:out(Q2), {{value, B}, _} = queue:out_r(Q3),
    io:format("~p ~p~n", [A, B]),
    io:format("~p ~p~n", [queue:peek(Q), queue:peek_r(queue:new())]),
    {L, R} = queue:split(2, Q2),
    io:format("~p ~p~n", [queue:to_list(L), queue:to_list(R)]),
    io:format("~p~n", [queue:to_list(queue:join(L, queue:reverse(R)))]),
    io:format("~p~n", [queue:to_list(queue:filter(fun(X) -> X rem 2 =:= 0 end, Q2))]),
    io:format("~p ~p ~p~n", [queue:member(3, Q), queue:len(Q2), queue:is_empty(queue:new())]),
    io:format("~p ~p~n", [queue:head(Q), queue:last(Q)]),
    io:format("~p~n", [queue:to_list(queue:snoc(queue:cons(a, Q), z))]),
    E = try queue:head(queue:new()) catch error:X -> X end,
    io:format("~p~n", [E]),
    ok.
