%% Checks: throw/exit/error propagate through functions, uncaught throw becomes {nocatch,V} error, exit(normal) inside try.
-module(exc_exit_throw).
-export([main/0]).

find(_, []) -> throw(not_found);
find(K, [{K, V} | _]) -> V;
find(K, [_ | T]) -> find(K, T).

lookup(K, L) ->
    try find(K, L) catch throw:not_found -> default end.

main() ->
    L = [{a, 1}, {b, 2}],
    io:format("~p ~p~n", [lookup(b, L), lookup(z, L)]),
    Spawned = self(),
    {Pid, Ref} = spawn_monitor(fun() -> throw(escaped) end),
    R1 = receive {'DOWN', Ref, process, Pid, Reason} -> Reason end,
    io:format("~p~n", [element(1, R1)]),
    io:format("~p~n", [element(1, element(1, R1))]),
    Nested = try
                 try exit(inner_exit) catch error:_ -> wrong_class end
             catch
                 exit:E -> {outer_got, E}
             end,
    io:format("~p~n", [Nested]),
    io:format("~p~n", [Spawned =:= self()]),
    try error(with_args, [1, 2]) catch error:with_args -> ok end.
