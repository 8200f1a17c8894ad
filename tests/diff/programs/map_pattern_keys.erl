%% Checks: map patterns with bound variable keys, literal keys of many types, matching several keys at once, and failed map matches.
-module(map_pattern_keys).
-export([main/0]).

get2(K1, K2, M) ->
    case M of
        #{K1 := V1, K2 := V2} -> {both, V1, V2};
        #{K1 := V1} -> {first, V1};
        #{} -> none
    end.

main() ->
    M = #{1 => int, 1.0 => float, "s" => str, <<"b">> => bin, {t, 1} => tuple, [x] => list, #{} => empty_map},
    #{1 := A, 1.0 := B, "s" := C, <<"b">> := D, {t, 1} := E, [x] := F, #{} := G} = M,
    io:format("~p~n", [[A, B, C, D, E, F, G]]),
    io:format("~p~n", [get2(1, "s", M)]),
    io:format("~p~n", [get2(1, missing, M)]),
    io:format("~p~n", [get2(missing, 1, M)]),
    R = try #{nope := _} = M catch error:Err -> Err end,
    io:format("~p~n", [element(1, R)]),
    Keys = [K || K <- [1, 2.0, "s"], is_map_key(K, M)],
    io:format("~p~n", [Keys]),
    io:format("~p~n", [M]),
    F2 = fun(#{type := T} = X) when map_size(X) > 1 -> T; (_) -> untyped end,
    [F2(#{type => a, v => 1}), F2(#{type => b}), F2(#{})].
