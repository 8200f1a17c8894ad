%% Checks: receive with bound variables in patterns, map patterns, guards in receive, nested receives, and a flush loop.
-module(ctl_receive_patterns).
-export([main/0]).

flush() -> receive _ -> 1 + flush() after 0 -> 0 end.

main() ->
    Self = self(),
    Tag = {req, 7},
    Self ! {Tag, wrong_tag_first},
    Self ! {{req, 8}, other},
    Self ! #{type => event, n => 1},
    Self ! {Tag, matched},
    Self ! {num, 5}, Self ! {num, 50},
    R1 = receive {{req, 8}, V1} -> V1 end,
    io:format("~p~n", [R1]),
    R2 = receive {Tag, V2} -> V2 end,
    io:format("~p~n", [R2]),
    R3 = receive #{type := event, n := N} -> {event, N} end,
    io:format("~p~n", [R3]),
    R4 = receive {num, X} when X > 10 -> {big, X} end,
    io:format("~p~n", [R4]),
    R5 = receive {num, Y} -> receive {Tag, V5} -> {Y, V5} after 0 -> {Y, none} end end,
    io:format("~p~n", [R5]),
    [Self ! I || I <- lists:seq(1, 7)],
    io:format("flushed ~p~n", [flush()]),
    Timeout = list_to_integer("10"),
    receive nothing -> nothing after Timeout -> variable_timeout end.
