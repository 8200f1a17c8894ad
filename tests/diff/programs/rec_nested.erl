%% Checks: nested records, updating an inner record, records inside lists and maps, record default expressions, pattern matching nested records.
-module(rec_nested).
-export([main/0]).

-record(addr, {street = "", city = "nowhere"}).
-record(person, {name, addr = #addr{}, tags = []}).
-record(counter, {n = 1 + 1, list = lists:seq(1, 3)}).

move(P = #person{addr = A}, City) -> P#person{addr = A#addr{city = City}}.

city(#person{addr = #addr{city = C}}) -> C.

main() ->
    P = #person{name = "ann"},
    io:format("~p~n", [P]),
    P2 = move(P, "paris"),
    io:format("~p~n", [P2]),
    io:format("~p~n", [city(P2)]),
    io:format("~p~n", [(P2#person.addr)#addr.city]),
    io:format("~p~n", [#counter{}]),
    People = [move(#person{name = N}, C) || {N, C} <- [{"a", "x"}, {"b", "y"}]],
    io:format("~p~n", [[city(Q) || Q <- People]]),
    ByName = maps:from_list([{Q#person.name, Q} || Q <- People]),
    #{"b" := #person{addr = #addr{city = BC}}} = ByName,
    io:format("~p~n", [BC]),
    P3 = P2#person{tags = [x | P2#person.tags], name = "ann2"},
    {P3#person.name, P3#person.tags, tuple_size(P3)}.
