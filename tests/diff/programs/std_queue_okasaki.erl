%% Checks: OTP's queue Okasaki API and the rest: liat, init, lait, daeh, tail, drop/drop_r, get/get_r, all/any, delete, fold.
-module(std_queue_okasaki).
-export([main/0]).
main() ->
    Q = queue:from_list([1, 2, 3, 4]),
    io:format("~p ~p~n", [queue:to_list(queue:liat(Q)), queue:to_list(queue:init(Q))]),
    io:format("~p ~p~n", [queue:daeh(Q), queue:to_list(queue:tail(Q))]),
    io:format("~p ~p~n", [queue:to_list(queue:drop(Q)), queue:to_list(queue:drop_r(Q))]),
    io:format("~p ~p~n", [queue:get(Q), queue:get_r(Q)]),
    io:format("~p ~p~n", [queue:all(fun(X) -> X > 0 end, Q), queue:any(fun(X) -> X > 3 end, Q)]),
    io:format("~p~n", [queue:to_list(queue:delete(3, Q))]),
    io:format("~p~n", [queue:fold(fun(X, A) -> X + A end, 0, Q)]),
    io:format("~p~n", [queue:to_list(queue:filtermap(fun(X) when X > 2 -> {true, X * 10}; (_) -> false end, Q))]),
    R = try queue:drop(queue:new()) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
