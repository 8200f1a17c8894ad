%% Checks: OTP's maps: take, remove of missing keys, with/without of missing keys, find, is_key errors, to_list of nested maps.
-module(maps_misc_ops).
-export([main/0]).
main() ->
    M = #{a => #{b => 1}, c => [1]},
    io:format("~p ~p~n", [maps:take(a, M), maps:take(z, M)]),
    io:format("~p~n", [maps:remove(z, M) =:= M]),
    io:format("~p ~p~n", [maps:with([a, z], M), maps:without([a, z], M)]),
    io:format("~p~n", [maps:find(c, M)]),
    R = try maps:is_key(a, not_map) catch error:E -> E end,
    io:format("~p~n", [R]),
    io:format("~p~n", [maps:to_list(M)]),
    io:format("~p~n", [maps:merge(#{a => 1}, #{a => 2, b => 3})]),
    ok.
