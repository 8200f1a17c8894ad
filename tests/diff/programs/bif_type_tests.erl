%% Checks: is_* type test BIFs over a spread of values, and type tests in guards.
-module(bif_type_tests).
-export([main/0]).

classify(X) when is_integer(X) -> integer;
classify(X) when is_float(X) -> float;
classify(X) when is_atom(X) -> atom;
classify(X) when is_binary(X) -> binary;
classify(X) when is_bitstring(X) -> bitstring;
classify(X) when is_list(X) -> list;
classify(X) when is_tuple(X) -> tuple;
classify(X) when is_map(X) -> map;
classify(X) when is_function(X) -> function;
classify(X) when is_pid(X) -> pid;
classify(X) when is_reference(X) -> reference;
classify(_) -> other.

main() ->
    Vals = [1, 1 bsl 80, 2.0, ok, <<1>>, <<1:7>>, [], "s", {}, #{}, fun main/0,
            self(), make_ref()],
    io:format("~p~n", [[classify(V) || V <- Vals]]),
    Tests = [{is_number, fun erlang:is_number/1}, {is_boolean, fun erlang:is_boolean/1},
             {is_list, fun erlang:is_list/1}, {is_binary, fun erlang:is_binary/1}],
    lists:foreach(fun({Name, F}) ->
                          io:format("~p: ~w~n", [Name, [F(V) || V <- [1, 2.5, true, [a], <<>>, <<1:1>>]]])
                  end, Tests),
    io:format("~p~n", [{is_function(fun main/0, 0), is_function(fun main/0, 1)}]),
    io:format("~p~n", [is_record({point, 1, 2}, point, 3)]),
    {is_tuple({a}), is_atom("a"), is_integer(1.0)}.
