%% Checks: lists:seq/2,3 over bignums (riak_core's chash walks the SHA-1
%% space, 0 to 2^160 - 1, in 64 steps), up and down, and its errors.
-module(lists_seq_bignum).
-export([main/0]).

reason({'EXIT', {R, _Stack}}) -> R;
reason(V) -> V.

main() ->
    Top = trunc(math:pow(2, 160) - 1),
    Inc = Top div 64,
    Ring = lists:seq(0, Top - 1, Inc),
    io:format("~p ~p ~p~n", [length(Ring), hd(Ring), lists:last(Ring)]),
    io:format("~p~n", [lists:seq(100000000000000000000, 100000000000000000003)]),
    io:format("~p~n", [lists:seq(100000000000000000000, 0, -40000000000000000000)]),
    io:format("~p~n", [lists:seq(-5, 100000000000000000000, 30000000000000000000)]),
    io:format("~p~n", [lists:seq(100000000000000000000, 100000000000000000000, 0)]),
    io:format("~p~n", [reason(catch lists:seq(100000000000000000000, 1, 7))]),
    io:format("~p~n", [reason(catch lists:seq(1, 100000000000000000000, 0))]),
    io:format("~p~n", [lists:seq(100000000000000000000, 99999999999999999999)]),
    ok.
