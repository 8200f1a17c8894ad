%% Checks: several producers send numbered items to one consumer; per-producer order is preserved; the consumer totals deterministically.
-module(conc_fan_in).
-export([main/0]).

consumer(Expected, Acc, Main) when Expected =:= 0 -> Main ! {consumed, Acc};
consumer(Expected, Acc, Main) ->
    receive
        {item, P, Seq, V} ->
            Last = maps:get(P, Acc, {0, 0}),
            {PrevSeq, Sum} = Last,
            Ok = Seq =:= PrevSeq + 1,
            consumer(Expected - 1, Acc#{P => {case Ok of true -> Seq; false -> -1000 end, Sum + V}}, Main)
    end.

main() ->
    Main = self(),
    Producers = 5, Items = 40,
    C = spawn(fun() -> consumer(Producers * Items, #{}, Main) end),
    [spawn(fun() -> [C ! {item, P, S, P * S} || S <- lists:seq(1, Items)] end) || P <- lists:seq(1, Producers)],
    Res = receive {consumed, M} -> M after 2000 -> timeout end,
    io:format("~p~n", [Res]),
    maps:fold(fun(_, {_, S}, A) -> A + S end, 0, Res).
