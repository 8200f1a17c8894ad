%% Checks: pattern features: aliases (=) in heads, repeated variables, string prefix "ab" ++ Rest, nested tuple/list patterns, underscore vars, match in expressions.
-module(ctl_patterns).
-export([main/0]).

first_two([A, B | _] = All) -> {A, B, length(All)};
first_two(Other) -> {short, Other}.

same({X, X}) -> same;
same({_, _}) -> different.

cmd("get " ++ Key) -> {get, Key};
cmd("set " ++ Rest) -> [K, V] = string:split(Rest, " "), {set, K, V};
cmd(_) -> unknown.

depth({node, L, R}) -> 1 + max(depth(L), depth(R));
depth(leaf) -> 0.

main() ->
    io:format("~p~n", [[first_two(L) || L <- [[1, 2, 3], [x], []]]]),
    io:format("~p~n", [[same(P) || P <- [{1, 1}, {1, 1.0}, {a, b}, {"s", "s"}]]]),
    io:format("~p~n", [[cmd(C) || C <- ["get user", "set k v", "del x"]]]),
    T = {node, {node, leaf, {node, leaf, leaf}}, leaf},
    io:format("~p~n", [depth(T)]),
    {ok, {point, X, Y}} = {ok, {point, 3, 4}},
    io:format("~p~n", [X * Y]),
    A = B = 5,
    io:format("~p~n", [A + B]),
    [H | _] = Tail = [q, r],
    io:format("~p ~p~n", [H, Tail]),
    {_, _Ignored, Third} = {1, 2, 3},
    io:format("~p~n", [Third]),
    <<Head:2/binary, _/binary>> = Bin = <<"abcdef">>,
    io:format("~p ~p~n", [Head, byte_size(Bin)]),
    #{name := Name} = M = #{name => "n", other => 1},
    io:format("~p ~p~n", [Name, map_size(M)]),
    case {1, [2, {3, "four"}]} of
        {One, [Two, {Three, [$f | Our]}]} -> {One + Two + Three, Our}
    end.
