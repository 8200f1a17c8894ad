%% Checks: atom_to_list, list_to_atom, atom_to_binary, binary_to_atom, list_to_existing_atom, quoted atom printing.
-module(bif_atoms).
-export([main/0]).

main() ->
    io:format("~p~n", [atom_to_list(hello)]),
    io:format("~p~n", [list_to_atom("with space")]),
    io:format("~p ~w~n", ['Capital', 'Capital']),
    io:format("~p~n", [['a-b', 'a b', a_b, 'aB', 'hello@world', '', '1a', 'case', 'when', ok]]),
    io:format("~p~n", [atom_to_binary(abc)]),
    io:format("~p~n", [atom_to_binary(abc, utf8)]),
    io:format("~p~n", [binary_to_atom(<<"xyz">>, utf8)]),
    io:format("~p~n", [binary_to_atom(<<"xyz">>)]),
    io:format("~p~n", [list_to_existing_atom("ok")]),
    R = try list_to_existing_atom("racewit_surely_never_seen_atom_42")
        catch error:E -> E end,
    io:format("~p~n", [R]),
    io:format("~s~n", [hello]),
    io:format("~p~n", [is_atom(true)]),
    io:format("~p~n", [[true, false, undefined, nil]]),
    {length(atom_to_list('')), 'and', 'x.y'}.
