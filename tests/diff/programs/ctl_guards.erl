%% Checks: guard expressions using BIFs (element, tuple_size, map_size, is_map_key, map_get, abs, length, byte_size, bit_size, hd), failing guards skip clauses.
-module(ctl_guards).
-export([main/0]).

g(X) when is_tuple(X), tuple_size(X) > 1, element(1, X) =:= tag -> tagged;
g(X) when is_map(X), map_size(X) > 0, is_map_key(k, X) -> {has_k, map_get(k, X)};
g(X) when is_list(X), length(X) =:= 2, hd(X) > 0 -> pair_pos;
g(X) when is_binary(X), byte_size(X) > 2 -> long_bin;
g(X) when is_bitstring(X), bit_size(X) rem 8 =/= 0 -> odd_bits;
g(X) when abs(X) > 100 -> big_num;
g(X) when X == 1; X == 2 -> one_or_two;
g(_) -> other.

h(X) when element(1, X) == a -> elem_a;
h(_) -> guard_error_means_false.

main() ->
    Vals = [{tag, 1}, {tag}, #{k => v}, #{}, [1, 2], [0, 2], <<"abc">>, <<1:3>>, -500, 2.0, 2, x],
    io:format("~p~n", [[g(V) || V <- Vals]]),
    io:format("~p~n", [[h(V) || V <- [{a}, {b}, not_a_tuple, {}]]]),
    F = fun(X) when X > 0, X < 10 -> digit; (X) when is_integer(X) -> int; (_) -> other end,
    io:format("~p~n", [[F(V) || V <- [5, 50, a]]]),
    io:format("~p~n", [[V || V <- [1, a, 2.0, "x"], is_number(V) orelse is_atom(V)]]),
    lists:filter(fun(V) when V rem 2 == 0 -> true; (_) -> false end, lists:seq(1, 10)).
