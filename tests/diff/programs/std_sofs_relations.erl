%% Checks: OTP's sofs from source: relations, families, domain/range, image, converse, composition, partition.
-module(std_sofs_relations).
-export([main/0]).
main() ->
    R = sofs:relation([{a, 1}, {b, 2}, {c, 1}]),
    io:format("~p ~p~n", [sofs:to_external(sofs:domain(R)), sofs:to_external(sofs:range(R))]),
    io:format("~p~n", [sofs:to_external(sofs:converse(R))]),
    io:format("~p~n", [sofs:to_external(sofs:image(R, sofs:set([a, c])))]),
    F = sofs:relation_to_family(sofs:converse(R)),
    io:format("~p~n", [sofs:to_external(F)]),
    S = sofs:relation([{1, x}, {2, y}]),
    io:format("~p~n", [sofs:to_external(sofs:relative_product(R, S))]),
    io:format("~p~n", [sofs:to_external(sofs:partition(1, R))]),
    io:format("~p~n", [sofs:to_external(sofs:union(sofs:set([1, 2]), sofs:set([2, 3])))]),
    ok.
