%% Checks: {badfun,F} for calling a non-fun, {badarity,{F,Args}} (only Args printed), undef for missing module/function.
-module(fun_errors).
-export([main/0]).

main() ->
    NotFun = list_to_atom("atom"),
    E1 = try NotFun(1) catch error:R1 -> R1 end,
    io:format("~p~n", [E1]),
    E2 = try (list_to_tuple([1, 2]))() catch error:R2 -> R2 end,
    io:format("~p~n", [E2]),
    F = fun(X, Y) -> X + Y end,
    E3 = try F(1) catch error:{badarity, {Fun, Args}} -> {badarity, is_function(Fun), Args} end,
    io:format("~p~n", [E3]),
    Mod = list_to_atom("no_such_module_xyz"),
    E4 = try Mod:f(1) catch error:R4 -> R4 end,
    io:format("~p~n", [E4]),
    E5 = try lists:no_such_function() catch error:R5 -> R5 end,
    io:format("~p~n", [E5]),
    E6 = try apply(lists, reverse, [1, 2]) catch error:R6 -> R6 end,
    io:format("~p~n", [E6]),
    E7 = try (fun() -> ok end)(extra) catch error:{badarity, {_, A7}} -> A7 end,
    io:format("~p~n", [E7]),
    G = fun lists:seq/2,
    E8 = try G(1) catch error:{badarity, {_, A8}} -> {arity_mismatch, A8} end,
    io:format("~p~n", [E8]),
    ok.
