%% Checks: element, setelement, tuple_size, size, make_tuple, append_element, tuple_to_list, list_to_tuple, erlang:delete_element/insert_element.
-module(bif_tuples).
-export([main/0]).

main() ->
    T = {a, b, c},
    io:format("~p ~p~n", [element(1, T), element(3, T)]),
    io:format("~p~n", [setelement(2, T, x)]),
    io:format("~p ~p ~p~n", [tuple_size(T), size(T), tuple_size({})]),
    io:format("~p~n", [erlang:make_tuple(3, z)]),
    io:format("~p~n", [erlang:make_tuple(5, 0, [{2, two}, {4, four}])]),
    io:format("~p~n", [erlang:append_element(T, d)]),
    io:format("~p~n", [tuple_to_list(T)]),
    io:format("~p~n", [list_to_tuple([1, [2], {3}])]),
    io:format("~p~n", [erlang:insert_element(2, T, new)]),
    io:format("~p~n", [erlang:delete_element(1, T)]),
    Bad = [fun() -> element(4, T) end,
           fun() -> element(0, T) end,
           fun() -> setelement(9, T, q) end,
           fun() -> tuple_size([a]) end,
           fun() -> list_to_tuple(not_a_list) end],
    Errs = [try F() catch error:R -> R end || F <- Bad],
    io:format("~p~n", [Errs]),
    {T, setelement(1, setelement(3, T, 3), 1)}.
