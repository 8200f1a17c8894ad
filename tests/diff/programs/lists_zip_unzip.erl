%% Checks: OTP's lists from source: zip/unzip family, zipwith, and their errors on uneven lists.
-module(lists_zip_unzip).
-export([main/0]).
main() ->
    Z = lists:zip([a, b, c], [1, 2, 3]),
    io:format("~p~n", [Z]),
    io:format("~p~n", [lists:unzip(Z)]),
    Z3 = lists:zip3([a, b], [1, 2], [x, y]),
    io:format("~p ~p~n", [Z3, lists:unzip3(Z3)]),
    io:format("~p~n", [lists:zipwith(fun(X, Y) -> X * Y end, [1, 2, 3], [4, 5, 6])]),
    io:format("~p~n", [lists:zipwith3(fun(X, Y, W) -> X + Y + W end, [1], [2], [3])]),
    R = try lists:zip([a], [1, 2]) catch error:E -> element(1, E) end,
    io:format("~p~n", [R]),
    ok.
