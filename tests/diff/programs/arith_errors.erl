%% Checks: badarith from division by zero and non-numbers, badarg from bad bitops.
-module(arith_errors).
-export([main/0]).

try_it(F) ->
    try F() of
        V -> {ok, V}
    catch
        C:R -> {C, R}
    end.

main() ->
    Zero = list_to_integer("0"),
    Atom = list_to_atom("a"),
    Fl = list_to_float("1.5"),
    Cases = [fun() -> 1 div Zero end,
             fun() -> 1 rem Zero end,
             fun() -> 1 / Zero end,
             fun() -> 1.0 / 0.0 end,
             fun() -> Atom + 1 end,
             fun() -> -Atom end,
             fun() -> Fl div 2 end,
             fun() -> Fl band 1 end,
             fun() -> 1 bsl Atom end,
             fun() -> bnot Fl end,
             fun() -> 10 div 3 end],
    Results = [try_it(F) || F <- Cases],
    lists:foreach(fun(R) -> io:format("~p~n", [R]) end, Results),
    length(Results).
