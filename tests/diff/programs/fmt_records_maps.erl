%% Checks: ~p/~w of records (printed as tuples), nested maps with tuple keys, maps with more than 80 columns, empty containers.
-module(fmt_records_maps).
-export([main/0]).

-record(conn, {host = "localhost", port = 5432, opts = [], state = idle}).

main() ->
    C = #conn{},
    io:format("~p~n", [C]),
    io:format("~w~n", [C#conn{opts = [ssl, {timeout, 5000}]}]),
    Conns = [C#conn{port = P, state = S} || {P, S} <- [{1, up}, {2, down}, {3, up}]],
    io:format("~p~n", [Conns]),
    M = #{{node, 1} => #{status => up, load => 0.75}, {node, 2} => #{status => down, load => 0.0}},
    io:format("~p~n", [M]),
    io:format("~p~n", [#{list => lists:seq(1, 30)}]),
    io:format("~p~n", [{[], {}, #{}, <<>>, ""}]),
    io:format("~p~n", [[#{}]]),
    io:format("~w~n", [#{a => #{b => #{c => #{}}}}]),
    #{nested => [C], count => length(Conns)}.
