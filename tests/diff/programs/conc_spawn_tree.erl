%% Checks: a recursively spawned binary tree of processes computing a sum; each parent waits for both children (deterministic result).
-module(conc_spawn_tree).
-export([main/0]).

tree_sum(Lo, Hi, Parent) when Hi - Lo < 8 ->
    Parent ! {sum, self(), lists:sum(lists:seq(Lo, Hi))};
tree_sum(Lo, Hi, Parent) ->
    Mid = (Lo + Hi) div 2,
    Self = self(),
    L = spawn(fun() -> tree_sum(Lo, Mid, Self) end),
    R = spawn(fun() -> tree_sum(Mid + 1, Hi, Self) end),
    SL = receive {sum, L, A} -> A end,
    SR = receive {sum, R, B} -> B end,
    Parent ! {sum, self(), SL + SR}.

main() ->
    Self = self(),
    Root = spawn(fun() -> tree_sum(1, 1000, Self) end),
    S = receive {sum, Root, V} -> V end,
    io:format("~p~n", [S]),
    Root2 = spawn(fun() -> tree_sum(1, 7, Self) end),
    io:format("~p~n", [receive {sum, Root2, V2} -> V2 end]),
    S =:= 1000 * 1001 div 2.
