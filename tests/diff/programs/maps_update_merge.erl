%% Checks: OTP's maps: update_with/3,4, merge_with, intersect/intersect_with, groups_from_list, with/without, get/3, from_keys.
-module(maps_update_merge).
-export([main/0]).
main() ->
    M = #{a => 1, b => 2},
    io:format("~p~n", [maps:update_with(a, fun(V) -> V + 10 end, M)]),
    io:format("~p~n", [maps:update_with(z, fun(V) -> V end, 0, M)]),
    R = try maps:update_with(z, fun(V) -> V end, M) catch error:E -> E end,
    io:format("~p~n", [R]),
    io:format("~p~n", [maps:merge_with(fun(_, X, Y) -> X + Y end, M, #{b => 5, c => 6})]),
    io:format("~p~n", [maps:intersect(M, #{b => x, c => y})]),
    io:format("~p~n", [maps:intersect_with(fun(_, X, Y) -> {X, Y} end, M, #{a => q})]),
    io:format("~p~n", [maps:groups_from_list(fun(X) -> X rem 2 end, [1, 2, 3, 4, 5])]),
    io:format("~p~n", [maps:groups_from_list(fun erlang:length/1, fun lists:reverse/1, ["ab", "c", "de"])]),
    io:format("~p~n", [maps:from_keys([x, y], 0)]),
    ok.
