%% Checks: iolist_to_binary, iolist_size, byte_size, bit_size, binary_part, split_binary, erlang:iolist errors.
-module(bif_iolist).
-export([main/0]).

main() ->
    IO = [<<"ab">>, $c, [[$d, <<"ef">>], []], "g" | <<"h">>],
    io:format("~p~n", [iolist_to_binary(IO)]),
    io:format("~p~n", [iolist_size(IO)]),
    io:format("~p ~p~n", [byte_size(<<1, 2, 3>>), bit_size(<<1, 2, 3>>)]),
    io:format("~p ~p~n", [byte_size(<<1:9>>), bit_size(<<1:9>>)]),
    B = <<"hello world">>,
    io:format("~p~n", [binary_part(B, 6, 5)]),
    io:format("~p~n", [binary_part(B, {11, -5})]),
    io:format("~p~n", [split_binary(B, 5)]),
    io:format("~p~n", [size(B)]),
    io:format("~p~n", [iolist_to_binary(<<"bin">>)]),
    Errs = [try F() catch error:R -> R end
            || F <- [fun() -> iolist_to_binary([1000]) end,
                     fun() -> iolist_size([a]) end,
                     fun() -> binary_part(B, 5, 20) end,
                     fun() -> split_binary(B, 12) end]],
    io:format("~p~n", [Errs]),
    erlang:iolist_to_binary([[], [[]], <<>>]).
