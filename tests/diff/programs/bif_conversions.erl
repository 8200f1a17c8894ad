%% Checks: list_to_integer, float_to_list (+options), list_to_float, binary_to_list, list_to_binary, number_to_list conversions and their badarg.
-module(bif_conversions).
-export([main/0]).

main() ->
    io:format("~p~n", [list_to_integer("-123")]),
    io:format("~p~n", [float_to_list(1.5)]),
    io:format("~p~n", [float_to_list(0.1, [{decimals, 3}])]),
    io:format("~p~n", [float_to_list(2.0, [{decimals, 2}, compact])]),
    io:format("~p~n", [float_to_list(123.456, [{scientific, 2}])]),
    io:format("~p~n", [float_to_list(0.1, [short])]),
    io:format("~p~n", [float_to_binary(3.25, [{decimals, 1}])]),
    io:format("~p~n", [list_to_float("2.5e3")]),
    io:format("~p~n", [binary_to_float(<<"-0.75">>)]),
    io:format("~p~n", [binary_to_list(<<"hey">>)]),
    io:format("~p~n", [binary_to_list(<<1, 2, 3, 4, 5>>, 2, 4)]),
    io:format("~p~n", [list_to_binary([1, "ab", <<"cd">>, [[$e]]])]),
    io:format("~p~n", [tuple_to_list(list_to_tuple("xy"))]),
    io:format("~p~n", [integer_to_list(list_to_integer("007"))]),
    Bad = [fun() -> list_to_integer("12a") end,
           fun() -> list_to_integer("") end,
           fun() -> list_to_float("1") end,
           fun() -> binary_to_integer(<<"1.0">>) end,
           fun() -> list_to_binary([256]) end,
           fun() -> list_to_binary([a]) end,
           fun() -> integer_to_list(1.0) end],
    io:format("~p~n", [[try F() catch error:R -> R end || F <- Bad]]),
    {list_to_integer("+5"), float(7)}.
