%% Checks: records are tuples: creation, defaults, field access, update, matching, record_info, is_record, #rec.field index.
-module(rec_basic).
-export([main/0]).

-record(person, {name, age = 0, email = undefined}).
-record(point, {x = 0 :: integer(), y = 0 :: integer()}).

older(#person{age = A} = P) -> P#person{age = A + 1}.

main() ->
    P = #person{name = "Ann"},
    io:format("~p~n", [P]),
    io:format("~p ~p~n", [P#person.name, P#person.age]),
    P2 = older(older(P)),
    io:format("~p~n", [P2]),
    io:format("~p~n", [record_info(fields, person)]),
    io:format("~p~n", [record_info(size, person)]),
    io:format("~p~n", [#person.age]),
    io:format("~p~n", [is_record(P, person)]),
    io:format("~p~n", [is_record({person, 1}, person)]),
    #person{name = N} = P2,
    io:format("~p~n", [N]),
    Pts = [#point{x = X, y = X * 2} || X <- [1, 2, 3]],
    io:format("~p~n", [Pts]),
    io:format("~p~n", [[Y || #point{y = Y} <- Pts]]),
    io:format("~p~n", [element(2, #point{x = 9})]),
    io:format("~p~n", [{person, "Bob", 30, x} =:= #person{name = "Bob", age = 30, email = x}]),
    io:format("~p~n", [lists:keyfind("Ann", #person.name, [P2])]),
    #point{}.
