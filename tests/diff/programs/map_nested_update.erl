%% Checks: deep updates of nested maps via maps:update_with and fold over a path; maps as records; maps:get with default on nested misses.
-module(map_nested_update).
-export([main/0]).

put_in(M, [K], V) -> M#{K => V};
put_in(M, [K | Rest], V) -> M#{K => put_in(maps:get(K, M, #{}), Rest, V)}.

get_in(M, []) -> {ok, M};
get_in(M, [K | Rest]) when is_map(M) ->
    case maps:find(K, M) of
        {ok, Sub} -> get_in(Sub, Rest);
        error -> not_found
    end;
get_in(_, _) -> not_found.

main() ->
    M0 = #{},
    M1 = put_in(M0, [a, b, c], 1),
    M2 = put_in(M1, [a, b, d], 2),
    M3 = put_in(M2, [a, x], 3),
    io:format("~p~n", [M3]),
    io:format("~p~n", [get_in(M3, [a, b, d])]),
    io:format("~p~n", [get_in(M3, [a, q])]),
    io:format("~p~n", [get_in(M3, [a, x, y])]),
    M4 = maps:update_with(a, fun(A) -> maps:remove(b, A) end, M3),
    io:format("~p~n", [M4]),
    Users = #{1 => #{name => "ann", roles => [admin]}, 2 => #{name => "bob", roles => []}},
    Promoted = maps:map(fun(_, U = #{roles := R}) -> U#{roles := lists:usort([user | R])} end, Users),
    io:format("~p~n", [Promoted]),
    #{2 := #{name := Name}} = Promoted,
    io:format("~p~n", [Name]),
    maps:fold(fun(K, #{roles := R}, Acc) -> Acc + K * length(R) end, 0, Promoted).
