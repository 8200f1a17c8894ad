%% Checks: OTP's sofs: family_union, family_to_relation, restriction/drestriction, is_function, inverse, multiple_relative_product-free basics.
-module(std_sofs_families).
-export([main/0]).
main() ->
    F = sofs:family([{a, [1, 2]}, {b, [2, 3]}]),
    io:format("~p~n", [sofs:to_external(sofs:family_union(F))]),
    io:format("~p~n", [sofs:to_external(sofs:family_to_relation(F))]),
    R = sofs:relation([{1, a}, {2, b}, {3, c}]),
    io:format("~p~n", [sofs:to_external(sofs:restriction(R, sofs:set([1, 3])))]),
    io:format("~p~n", [sofs:to_external(sofs:drestriction(R, sofs:set([1, 3])))]),
    io:format("~p ~p~n", [sofs:is_function(R), sofs:to_external(sofs:inverse(R))]),
    io:format("~p~n", [sofs:no_elements(sofs:set([x, y, z]))]),
    ok.
