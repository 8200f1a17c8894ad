%% Checks: atom length limits (255 chars ok, 256 is system_limit), list_to_atom of non-latin1 code points, atom comparison is by text.
-module(bif_atom_limits).
-export([main/0]).

main() ->
    A255 = list_to_atom(lists:duplicate(255, $a)),
    io:format("~p~n", [length(atom_to_list(A255))]),
    E = try list_to_atom(lists:duplicate(256, $a)) catch error:R -> R end,
    io:format("~p~n", [E]),
    E2 = try list_to_atom([a]) catch error:R2 -> R2 end,
    io:format("~p~n", [E2]),
    io:format("~p~n", [lists:sort([zeta, alpha, 'Beta', '_under', 'alpha2'])]),
    io:format("~p~n", [list_to_atom("") =:= '']),
    io:format("~p~n", [atom_to_list('hello world')]),
    io:format("~p~n", [binary_to_atom(<<"a", 0, "b">>, latin1) =:= list_to_atom([$a, 0, $b])]),
    io:format("~p~n", [list_to_atom([$a, 0, $b])]),
    io:format("~p~n", [is_atom(list_to_atom("123"))]),
    list_to_atom("123").
