%% Checks: process aliases: alias/0,1 and unalias/1, a monitor's alias ({alias, demonitor} and {alias, explicit_unalias}), messages through an active alias arrive and through an ended one are dropped, a reference that is no alias takes a send silently.
-module(alias_messages).
-export([main/0]).

flush() ->
    receive M -> [M | flush()] after 0 -> [] end.

via(Alias, Msg) ->
    Me = self(),
    P = spawn(fun() -> Alias ! Msg, erlang:send(Alias, {again, Msg}), Me ! {sent, self()} end),
    receive {sent, P} -> ok end.

err(F) -> try F() catch C:R -> {C, R} end.

main() ->
    A = alias(),
    via(A, one),
    io:format("active: ~p~n", [flush()]),
    io:format("unalias: ~p ~p~n", [unalias(A), unalias(A)]),
    via(A, two),
    io:format("after unalias: ~p~n", [flush()]),
    R = alias([reply]),
    via(R, three),
    io:format("reply alias: ~p ~p~n", [flush(), unalias(R)]),
    Server = spawn(fun() -> receive stop -> ok end end),
    M = monitor(process, Server, [{alias, demonitor}]),
    via(M, four),
    io:format("monitor alias: ~p~n", [flush()]),
    io:format("demonitor: ~p~n", [demonitor(M, [flush])]),
    via(M, five),
    io:format("after demonitor: ~p ~p~n", [flush(), unalias(M)]),
    M2 = monitor(process, Server, [{alias, demonitor}]),
    Server ! stop,
    receive {'DOWN', M2, process, Server, Why} -> io:format("down ~p~n", [Why]) end,
    via(M2, six),
    io:format("after down: ~p~n", [flush()]),
    Dead = spawn(fun() -> ok end),
    M3 = monitor(process, Dead, [{alias, explicit_unalias}]),
    receive {'DOWN', M3, process, Dead, W3} -> io:format("noproc down ~p~n", [W3]) end,
    via(M3, seven),
    io:format("explicit alias outlives its monitor: ~p ~p~n", [flush(), unalias(M3)]),
    Plain = make_ref(),
    via(Plain, eight),
    io:format("plain ref: ~p ~p~n", [flush(), unalias(Plain)]),
    Other = spawn(fun() -> receive {unalias, From, X} -> From ! {res, unalias(X)} end end),
    A2 = alias(),
    Other ! {unalias, self(), A2},
    receive {res, Res} -> io:format("not the owner: ~p~n", [Res]) end,
    via(A2, nine),
    io:format("still active: ~p~n", [flush()]),
    io:format("bad: ~p ~p ~p~n", [err(fun() -> alias(nope) end), err(fun() -> alias([nope]) end),
                               err(fun() -> unalias(self()) end)]),
    io:format("bad monitor option: ~p~n", [err(fun() -> monitor(process, self(), [{alias, nope}]) end)]),
    done.
