%% Checks: dynamic calls: Mod:Fun(Args) with variables, apply with computed arity, funs stored in maps and tuples, fun passed between processes.
-module(fun_apply_dynamic).
-export([main/0, double/1, add/2]).

double(X) -> 2 * X.
add(X, Y) -> X + Y.

main() ->
    Ops = #{double => {?MODULE, double}, add => {?MODULE, add}, rev => {lists, reverse}},
    Run = fun(Name, Args) -> {M, F} = maps:get(Name, Ops), apply(M, F, Args) end,
    io:format("~p~n", [Run(double, [21])]),
    io:format("~p~n", [Run(add, [1, 2])]),
    io:format("~p~n", [Run(rev, [[1, 2, 3]])]),
    Mod = ?MODULE, Fn = double,
    io:format("~p~n", [Mod:Fn(5)]),
    Table = [{inc, fun(X) -> X + 1 end}, {neg, fun(X) -> -X end}],
    io:format("~p~n", [[F(10) || {_, F} <- Table]]),
    {_, Neg} = lists:keyfind(neg, 1, Table),
    io:format("~p~n", [Neg(Neg(3))]),
    Self = self(),
    Worker = spawn(fun() -> receive {run, F, A} -> Self ! {result, F(A)} end end),
    Worker ! {run, fun(X) -> X * X end, 9},
    io:format("~p~n", [receive {result, R} -> R end]),
    io:format("~p~n", [erlang:function_exported(?MODULE, double, 1)]),
    io:format("~p~n", [erlang:function_exported(?MODULE, nope, 1)]),
    lists:foldl(fun(F, Acc) -> F(Acc) end, 1, [fun double/1, fun ?MODULE:double/1, fun(X) -> add(X, 1) end]).
