%% Checks: io_lib:format returns deep chars; flatten; io_lib:write, io_lib:print, io_lib:fwrite, format errors (badarg).
-module(fmt_io_lib).
-export([main/0]).

main() ->
    S = io_lib:format("~w+~w", [1, 2]),
    io:format("~p~n", [lists:flatten(S)]),
    io:format("~p~n", [lists:flatten(io_lib:write({a, "b", <<"c">>}))]),
    io:format("~p~n", [lists:flatten(io_lib:print({a, "b"}))]),
    io:format("~p~n", [lists:flatten(io_lib:fwrite("~s!", ["hi"]))]),
    io:format("~p~n", [lists:flatten(io_lib:write_atom('Quoted'))]),
    io:format("~p~n", [lists:flatten(io_lib:write_string("x\"y"))]),
    io:format("~p~n", [iolist_to_binary(io_lib:format("~4..0B", [42]))]),
    E1 = try io_lib:format("~d", [1]) catch error:R1 -> R1 end,
    E2 = try io_lib:format("~w ~w", [1]) catch error:R2 -> R2 end,
    E3 = try io:format("~s~n", [123]) catch error:R3 -> R3 end,
    io:format("~p~n", [[E1, E2, E3]]),
    io:format("no args~n"),
    io:format("~s~n", [[]]),
    io:fwrite("fwrite ~p~n", [ok]),
    io:put_chars("put_chars\n"),
    io:put_chars([<<"io">>, "list", $\n]),
    io:nl(),
    io:write({written, 1}),
    io:nl(),
    ok.
