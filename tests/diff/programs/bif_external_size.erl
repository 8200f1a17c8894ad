%% Checks: erlang:external_size/1 is the size of term_to_binary/1's encoding, for every kind of term without pids, references or funs, including long atoms, bignums and nested maps.
-module(bif_external_size).
-export([main/0]).

main() ->
    Terms = [0, 255, 256, -1, 1 bsl 31, 1 bsl 64, -(1 bsl 300), 3.5, -0.0, 1.0e300,
             a, 'an atom with spaces', list_to_atom(lists:duplicate(255, $x)), 'ünïcödé',
             [], "abc", lists:seq(1, 300), [1 | 2], [a, "b", <<"c">>],
             <<>>, <<1, 2, 3>>, <<1:3>>, binary:copy(<<"z">>, 1000),
             {}, {a}, list_to_tuple(lists:seq(1, 300)),
             #{}, #{a => 1, <<"k">> => [v]}, maps:from_list([{I, I * I} || I <- lists:seq(1, 40)]),
             {[#{x => {y, "z"}}], <<"nested">>, 1 bsl 100}],
    Sizes = [{erlang:external_size(T), byte_size(term_to_binary(T))} || T <- Terms],
    io:format("~p~n", [[S || {S, _} <- Sizes]]),
    io:format("equal to term_to_binary: ~p~n", [lists:all(fun({A, B}) -> A =:= B end, Sizes)]),
    ok.
