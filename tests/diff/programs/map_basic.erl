%% Checks: map construction, update with => and :=, pattern matching on maps, map printing order, map in guards.
-module(map_basic).
-export([main/0]).

area(#{shape := circle, r := R}) -> 3 * R * R;
area(#{shape := rect, w := W, h := H}) -> W * H;
area(#{}) -> unknown.

main() ->
    M0 = #{b => 2, a => 1, c => 3},
    io:format("~p~n", [M0]),
    M1 = M0#{d => 4, a => 10},
    io:format("~p~n", [M1]),
    M2 = M1#{b := 20},
    io:format("~p~n", [M2]),
    #{a := A, c := C} = M2,
    io:format("~p ~p~n", [A, C]),
    io:format("~p~n", [[area(#{shape => circle, r => 2}), area(#{shape => rect, w => 3, h => 4}), area(#{x => 1})]]),
    Mixed = #{1 => int, 1.0 => float, a => atom, "s" => string, {t} => tuple, [l] => list, <<"b">> => bin},
    io:format("~p~n", [Mixed]),
    io:format("~w~n", [#{z => 1, y => #{x => 2}}]),
    io:format("~p ~p~n", [map_size(M2), is_map(M2)]),
    Bad = try M0#{zz := 1} catch error:R -> R end,
    io:format("~p~n", [Bad]),
    NotMap = list_to_atom("notmap"),
    Bad2 = try NotMap#{a => 1} catch error:R2 -> R2 end,
    io:format("~p~n", [Bad2]),
    K = key,
    #{K := V} = #{key => found},
    io:format("~p~n", [V]),
    Big = maps:from_list([{N, N * N} || N <- lists:seq(1, 40)]),
    io:format("~p~n", [lists:sum(maps:values(Big))]),
    {#{}, #{k => #{}}}.
