%% Checks: register/whereis/unregister, send to a registered name, registered() filtered to our names and sorted, name freed on exit.
-module(reg_basic).
-export([main/0]).

ours() -> lists:sort([N || N <- registered(), lists:member(N, [rw_alpha, rw_beta, rw_main])]).

main() ->
    Self = self(),
    true = register(rw_main, self()),
    io:format("~p~n", [whereis(rw_main) =:= Self]),
    A = spawn(fun() -> receive {From, ping} -> From ! {rw_alpha, pong} end end),
    B = spawn(fun() -> receive stop -> ok end end),
    io:format("~p ~p~n", [register(rw_beta, B), register(rw_alpha, A)]),
    io:format("~p~n", [ours()]),
    ARef = monitor(process, A),
    rw_alpha ! {rw_main, ping},
    io:format("~p~n", [receive {rw_alpha, R} -> R end]),
    io:format("~p~n", [whereis(rw_nobody)]),
    io:format("~p~n", [unregister(rw_beta)]),
    io:format("~p~n", [whereis(rw_beta)]),
    io:format("~p~n", [ours()]),
    B ! stop,
    receive {'DOWN', ARef, process, A, _} -> ok end,
    io:format("alpha after exit: ~p~n", [whereis(rw_alpha)]),
    io:format("~p~n", [ours()]),
    true = unregister(rw_main),
    {whereis(rw_main), process_info(self(), registered_name)}.
