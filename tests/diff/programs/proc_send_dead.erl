%% Checks: sending to a dead pid is silent and returns the message; send returns its message; ! is right-associative; erlang:send/2.
-module(proc_send_dead).
-export([main/0]).

main() ->
    {P, PRef} = spawn_monitor(fun() -> ok end),
    receive {'DOWN', PRef, process, P, normal} -> ok end,
    io:format("~p~n", [P ! hello_dead]),
    io:format("~p~n", [erlang:send(P, {tuple, 1})]),
    Self = self(),
    X = Self ! Self ! twice,
    io:format("~p~n", [X]),
    io:format("~p~n", [[receive twice -> got after 0 -> none end || _ <- [1, 2, 3]]]),
    io:format("~p~n", [erlang:send(Self, msg, [noconnect])]),
    io:format("~p~n", [receive msg -> msg_received after 0 -> none end]),
    E = try list_to_atom("notapid") ! x catch error:R -> R end,
    io:format("~p~n", [E]),
    E2 = try 42 ! x catch error:R2 -> R2 end,
    E2.
