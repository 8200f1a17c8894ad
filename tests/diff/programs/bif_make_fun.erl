%% Checks: erlang:make_fun/3 builds the same external fun as `fun M:F/A`, which calls, compares, prints and answers fun_info as one; arity limits and badarg cases.
-module(bif_make_fun).
-export([main/0, twice/1]).

c(F) -> try F() catch C:R -> {C, R} end.

twice(X) -> 2 * X.

main() ->
    F = erlang:make_fun(lists, reverse, 1),
    io:format("~p ~p~n", [F, F([1, 2, 3])]),
    io:format("~p~n", [{F =:= fun lists:reverse/1, F == fun lists:reverse/1, is_function(F, 1), is_function(F, 2)}]),
    io:format("~p~n", [erlang:fun_info(F)]),
    io:format("~p~n", [[erlang:fun_info(F, K) || K <- [module, name, arity, type, env]]]),
    M = list_to_atom("bif_make_fun"), N = list_to_atom("twice"),
    G = erlang:make_fun(M, N, 1),
    io:format("~p ~p ~p~n", [G(21), lists:map(G, [1, 2]), apply(G, [5])]),
    %% A fun of a function that does not exist is made; calling it is undef.
    %% (The module's name is made at run time: racewit takes a module that
    %% the code names as an atom for a dependency missing from the paths.)
    H = erlang:make_fun(list_to_atom("no_such_module"), f, 0),
    io:format("~p ~p~n", [H, c(fun() -> H() end)]),
    io:format("~p~n", [c(fun() -> F(1, 2) end)]),
    io:format("~p~n", [[c(fun() -> erlang:make_fun(a, b, A) end) || A <- [0, 255, 256, -1, 1.0, x]]]),
    io:format("~p~n", [[c(fun() -> erlang:make_fun(Mod, Fun, 1) end) || {Mod, Fun} <- [{1, b}, {a, "b"}, {{a}, b}]]]),
    io:format("~p~n", [lists:sort([erlang:make_fun(b, x, 1), erlang:make_fun(a, y, 2), erlang:make_fun(a, y, 1)])]),
    ok.
