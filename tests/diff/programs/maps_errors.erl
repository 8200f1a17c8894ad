%% Checks: error reasons of OTP's maps functions on bad arguments (badmap, badarg, badkey).
-module(maps_errors).
-export([main/0]).
main() ->
    F = fun(Fun) -> try Fun() catch error:E -> E end end,
    io:format("~p~n", [F(fun() -> maps:fold(fun(_, _, A) -> A end, 0, [x]) end)]),
    io:format("~p~n", [F(fun() -> maps:map(fun(_, V) -> V end, not_a_map) end)]),
    io:format("~p~n", [F(fun() -> maps:filter(not_a_fun, #{}) end)]),
    io:format("~p~n", [F(fun() -> maps:get(missing, #{a => 1}) end)]),
    io:format("~p~n", [F(fun() -> maps:next(bad_iterator) end)]),
    io:format("~p~n", [F(fun() -> maps:size([]) end)]),
    ok.
