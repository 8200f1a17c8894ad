%% Checks: selective receive takes matching messages out of order, leaves others queued in arrival order; receive with guards.
-module(proc_selective_receive).
-export([main/0]).

drain(Acc) ->
    receive M -> drain([M | Acc]) after 0 -> lists:reverse(Acc) end.

main() ->
    Self = self(),
    Self ! {low, 1}, Self ! {high, 2}, Self ! {low, 3}, Self ! {high, 4}, Self ! other,
    H1 = receive {high, X} -> X end,
    H2 = receive {high, Y} -> Y end,
    io:format("high first: ~p ~p~n", [H1, H2]),
    O = receive other -> got_other end,
    io:format("~p~n", [O]),
    io:format("rest: ~p~n", [drain([])]),
    [Self ! N || N <- [5, 12, 7, 20, 1]],
    Big = receive N when N > 10 -> N end,
    io:format("first big: ~p~n", [Big]),
    io:format("rest: ~p~n", [drain([])]),
    Self ! {reply, ref2, b}, Self ! {reply, ref1, a},
    A = receive {reply, ref1, V1} -> V1 end,
    B = receive {reply, ref2, V2} -> V2 end,
    io:format("~p~n", [{A, B}]),
    {messages, Q} = process_info(self(), messages),
    Q.
