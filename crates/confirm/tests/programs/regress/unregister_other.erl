%% `unregister/1` of a name another process holds takes it from that
%% process, so the holder's exit no longer frees it (random program seed
%% 4146): the two were independent, and DPOR never ran the exit between
%% the whereis and the unregister ({P1.1, unregistered} was missed).
-module(unregister_other).
-export([main/0]).

main() ->
    spawn(fun() -> register(n2, self()) end),
    W = whereis(n2),
    R = try unregister(n2) catch error:badarg -> unregistered end,
    {W, R}.
