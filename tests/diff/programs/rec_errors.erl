%% Checks: {badrecord,R} when accessing/updating a field of a non-record or wrong record.
-module(rec_errors).
-export([main/0]).

-record(a, {x = 1}).
-record(b, {y = 2}).

get_x(R) -> R#a.x.
set_x(R, V) -> R#a{x = V}.

main() ->
    io:format("~p~n", [get_x(#a{})]),
    io:format("~p~n", [set_x(#a{}, 5)]),
    E1 = try get_x(#b{}) catch error:R1 -> R1 end,
    io:format("~p~n", [E1]),
    E2 = try set_x({a}, 3) catch error:R2 -> R2 end,
    io:format("~p~n", [E2]),
    E3 = try get_x(not_a_record) catch error:R3 -> R3 end,
    io:format("~p~n", [E3]),
    E4 = try set_x({a, 1, 2}, 3) catch error:R4 -> R4 end,
    io:format("~p~n", [E4]),
    ok.
