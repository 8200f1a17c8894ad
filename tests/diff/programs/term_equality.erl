%% Checks: == vs =:= and /= vs =/= across ints, floats, and nested containers.
-module(term_equality).
-export([main/0]).

main() ->
    Pairs = [{1, 1.0}, {0, -0.0}, {0.0, -0.0}, {a, a}, {"a", <<"a">>},
             {{1, 2.0}, {1, 2}}, {[1], [1.0]}, {#{a => 1}, #{a => 1.0}},
             {#{1 => a}, #{1.0 => a}}, {<<1>>, <<1>>}, {[], []}, {{}, {}},
             {1 bsl 70, 1 bsl 70}, {float(1 bsl 70), 1 bsl 70}],
    lists:foreach(fun({A, B}) ->
                          io:format("~w ~w: ~w ~w ~w ~w~n",
                                    [A, B, A == B, A =:= B, A /= B, A =/= B])
                  end, Pairs),
    Loose = lists:usort(fun(A, B) -> A =< B end, [1, 1.0, 2, 2.0]),
    io:format("~p~n", [Loose]),
    io:format("~p~n", [lists:member(1.0, [1, 2])]),
    io:format("~p~n", [lists:keyfind(1.0, 1, [{1, one}])]),
    io:format("~p~n", [lists:delete(1.0, [1, 1.0])]),
    M = #{1 => int},
    {maps:find(1.0, M), maps:get(1, M)}.
