%% Checks: for many integer pairs (small and big, all signs) (A div B)*B + A rem B =:= A, rem has the sign of A, div truncates toward zero.
-module(arith_div_properties).
-export([main/0]).

main() ->
    Vals = [0, 1, -1, 7, -7, 100, -100, 1 bsl 62, -(1 bsl 62), 1 bsl 64 + 3, -(1 bsl 70) - 5],
    Divs = [1, -1, 3, -3, 64, 1 bsl 40, -(1 bsl 65)],
    Checks = [{A, B, (A div B) * B + A rem B =:= A,
               A rem B =:= 0 orelse (A rem B > 0) =:= (A > 0)}
              || A <- Vals, B <- Divs],
    io:format("~p~n", [length(Checks)]),
    io:format("~p~n", [lists:usort([{C1, C2} || {_, _, C1, C2} <- Checks])]),
    io:format("~p~n", [[(1 bsl 64 + 3) div D || D <- Divs]]),
    io:format("~p~n", [[(-(1 bsl 70) - 5) rem D || D <- Divs]]),
    io:format("~p~n", [[X bsr 1 || X <- [-3, -2, -1, 0, 1, 2, 3]]]),
    io:format("~p~n", [[X div 2 || X <- [-3, -2, -1, 0, 1, 2, 3]]]),
    {7 rem -3, -7 rem 3, -7 div 3}.
