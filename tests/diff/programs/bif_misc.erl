%% Checks: abs, max, min, apply/2, apply/3, erlang:apply with a fun, node(), self() is a pid, make_ref distinctness.
-module(bif_misc).
-export([main/0, add/2]).

add(A, B) -> A + B.

main() ->
    io:format("~p ~p ~p~n", [abs(-4), abs(4), abs(-4.5)]),
    io:format("~p ~p~n", [max(3, 7), min(3, 7)]),
    io:format("~p ~p~n", [max("abc", abc), min({a}, [a])]),
    io:format("~p~n", [apply(fun add/2, [1, 2])]),
    io:format("~p~n", [apply(?MODULE, add, [10, 20])]),
    io:format("~p~n", [apply(lists, reverse, [[1, 2, 3]])]),
    io:format("~p~n", [erlang:apply(fun(X) -> X * 2 end, [21])]),
    M = lists, F = seq,
    io:format("~p~n", [M:F(1, 5)]),
    io:format("~p~n", [node()]),
    io:format("~p~n", [is_pid(self())]),
    R1 = make_ref(), R2 = make_ref(),
    io:format("~p ~p~n", [R1 =:= R2, R1 =:= R1]),
    io:format("~p~n", [erlang:is_builtin(erlang, abs, 1)]),
    Undef = try apply(?MODULE, nosuch, []) catch error:E -> E end,
    {Undef, apply(erlang, tuple_size, [{1, 2}])}.
