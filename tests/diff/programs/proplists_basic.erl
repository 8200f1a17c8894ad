%% Checks: proplists get_value/2,3, lookup, lookup_all, delete, is_defined, get_bool, expand of atoms to {A,true}, get_keys, compact.
-module(proplists_basic).
-export([main/0]).

main() ->
    P = [{host, "localhost"}, {port, 80}, verbose, {port, 8080}, {debug, false}],
    io:format("~p ~p~n", [proplists:get_value(port, P), proplists:get_value(missing, P)]),
    io:format("~p~n", [proplists:get_value(missing, P, default)]),
    io:format("~p~n", [proplists:get_value(verbose, P)]),
    io:format("~p ~p~n", [proplists:lookup(port, P), proplists:lookup(nope, P)]),
    io:format("~p~n", [proplists:lookup(verbose, P)]),
    io:format("~p~n", [proplists:lookup_all(port, P)]),
    io:format("~p~n", [proplists:get_all_values(port, P)]),
    io:format("~p~n", [proplists:delete(port, P)]),
    io:format("~p ~p~n", [proplists:is_defined(debug, P), proplists:is_defined(x, P)]),
    io:format("~p ~p ~p~n", [proplists:get_bool(verbose, P), proplists:get_bool(debug, P), proplists:get_bool(x, P)]),
    io:format("~p~n", [lists:sort(proplists:get_keys(P))]),
    io:format("~p~n", [proplists:compact([{a, true}, {b, 1}])]),
    io:format("~p~n", [proplists:unfold([a, {b, 2}])]),
    io:format("~p~n", [proplists:from_map(#{x => 1})]),
    io:format("~p~n", [proplists:to_map([{x, 1}, y, {x, 2}])]),
    proplists:append_values(port, P).
