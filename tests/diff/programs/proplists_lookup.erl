%% Checks: OTP's proplists: get_value/get_all_values/get_bool/lookup/lookup_all/is_defined/delete/append_values/get_keys/unfold/property.
-module(proplists_lookup).
-export([main/0]).
main() ->
    L = [{k, 1}, flag, {k, 2}, {j, [a]}, {j, [b]}],
    io:format("~p ~p ~p~n", [proplists:get_value(k, L), proplists:get_value(z, L, dflt), proplists:get_value(flag, L)]),
    io:format("~p~n", [proplists:get_all_values(k, L)]),
    io:format("~p ~p~n", [proplists:get_bool(flag, L), proplists:get_bool(k, L)]),
    io:format("~p ~p~n", [proplists:lookup(k, L), proplists:lookup_all(k, L)]),
    io:format("~p ~p~n", [proplists:is_defined(j, L), proplists:delete(k, L)]),
    io:format("~p~n", [proplists:append_values(j, L)]),
    io:format("~p~n", [lists:sort(proplists:get_keys(L))]),
    io:format("~p ~p~n", [proplists:unfold([a, {b, 1}]), proplists:property(x, true)]),
    ok.
