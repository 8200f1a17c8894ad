%% Checks: OTP's lists: split, splitwith, partition, takewhile/dropwhile, sublist, nthtail, last, droplast.
-module(lists_split_partition).
-export([main/0]).
main() ->
    L = lists:seq(1, 10),
    io:format("~p~n", [lists:split(3, L)]),
    io:format("~p~n", [lists:splitwith(fun(X) -> X < 4 end, L)]),
    io:format("~p~n", [lists:partition(fun(X) -> X rem 2 =:= 0 end, L)]),
    io:format("~p ~p~n", [lists:takewhile(fun(X) -> X < 5 end, L), lists:dropwhile(fun(X) -> X < 8 end, L)]),
    io:format("~p ~p ~p~n", [lists:sublist(L, 3, 4), lists:sublist(L, 2), lists:nthtail(7, L)]),
    io:format("~p ~p ~p~n", [lists:last(L), lists:droplast([a, b, c]), lists:nth(4, L)]),
    R = try lists:split(20, L) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
