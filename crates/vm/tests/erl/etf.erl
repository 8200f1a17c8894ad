-module(etf).
-export([main/0]).
main() ->
    Ts = [0, 255, 256, -1, 1 bsl 40, -(1 bsl 70), 1.5, abc, 'hello world', {}, {a, 1}, [], "abc", [1, 300], [a | b],
          <<1,2,3>>, #{a => 1, 2 => "x"}, {[{x, <<>>}], 3.0e10}],
    Bins = [term_to_binary(T) || T <- Ts],
    io:format("~w~n", [[byte_size(B) || B <- Bins]]),
    io:format("~w~n", [lists:sum([lists:sum(binary_to_list(B)) || B <- Bins])]),
    [T =:= binary_to_term(B) || {T, B} <- lists:zip(Ts, Bins)].
