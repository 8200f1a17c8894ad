%% Checks: queue module: new, in, in_r, out, out_r, len, to_list, from_list, peek, reverse, join, split, member, filter; printed only via to_list.
-module(std_queue).
-export([main/0]).

main() ->
    Q0 = queue:new(),
    Q1 = lists:foldl(fun queue:in/2, Q0, [1, 2, 3, 4]),
    io:format("~p ~p~n", [queue:to_list(Q1), queue:len(Q1)]),
    {{value, H}, Q2} = queue:out(Q1),
    io:format("~p ~p~n", [H, queue:to_list(Q2)]),
    {{value, T}, Q3} = queue:out_r(Q2),
    io:format("~p ~p~n", [T, queue:to_list(Q3)]),
    Q4 = queue:in_r(0, Q3),
    io:format("~p~n", [queue:to_list(Q4)]),
    io:format("~p ~p~n", [queue:peek(Q4), queue:peek_r(Q4)]),
    io:format("~p~n", [element(1, queue:out(queue:new()))]),
    io:format("~p~n", [queue:is_empty(queue:new())]),
    io:format("~p~n", [queue:to_list(queue:reverse(queue:from_list([a, b, c])))]),
    io:format("~p~n", [queue:to_list(queue:join(queue:from_list([1]), queue:from_list([2, 3])))]),
    {A, B} = queue:split(2, queue:from_list([1, 2, 3, 4, 5])),
    io:format("~p ~p~n", [queue:to_list(A), queue:to_list(B)]),
    io:format("~p~n", [queue:member(3, Q1)]),
    io:format("~p~n", [queue:to_list(queue:filter(fun(X) -> X rem 2 =:= 0 end, Q1))]),
    Drain = fun D(Q, Acc) -> case queue:out(Q) of {empty, _} -> lists:reverse(Acc); {{value, V}, R} -> D(R, [V | Acc]) end end,
    Drain(queue:from_list(lists:seq(1, 10)), []).
