%% Checks: integer printing in bases with ~b ~B ~.16B ~.2b ~x ~# and integer_to_list/2.
-module(arith_int_print).
-export([main/0]).

main() ->
    io:format("~b ~B~n", [255, -255]),
    io:format("~.16B ~.16b~n", [255, 255]),
    io:format("~.2B ~.8B ~.36B~n", [10, 64, 35]),
    io:format("~.16#~n", [255]),
    io:format("~.16x~n", [255, "0x"]),
    io:format("~8.16.0B|~n", [48879]),
    io:format("~-8B|~8B|~n", [42, 42]),
    io:format("~p~n", [integer_to_list(255, 16)]),
    io:format("~p~n", [integer_to_list(-255, 2)]),
    io:format("~p~n", [integer_to_list(1 bsl 70, 36)]),
    io:format("~p~n", [list_to_integer("ff", 16)]),
    io:format("~p~n", [list_to_integer("-1010", 2)]),
    io:format("~p~n", [integer_to_binary(12345)]),
    io:format("~p~n", [integer_to_binary(255, 16)]),
    io:format("~p~n", [binary_to_integer(<<"-77">>)]),
    io:format("~p~n", [binary_to_integer(<<"zz">>, 36)]),
    io:format("~B~n", [123456789012345678901234567890]),
    {integer_to_list(0), integer_to_list(-0)}.
