%% Checks: erlang:nif_error/1,2 raise an error as error/1,2 do (the stubs of
%% erts' own erlang.erl call it; it is never a call that cannot run).
-module(nif_error).
-export([main/0]).

main() ->
    A = try erlang:nif_error(undefined) catch C1:R1 -> {C1, R1} end,
    B = try erlang:nif_error({not_loaded, x}, [1, 2]) catch C2:R2 -> {C2, R2} end,
    io:format("~p~n~p~n", [A, B]),
    {A, B}.
