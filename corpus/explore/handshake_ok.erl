%% A parallel map with a proper handshake: every worker replies with its own
%% pid and the parent collects replies selectively, in order.  Whatever the
%% arrival order, all processes finish.  Expected: explore ok.
-module(handshake_ok).
-export([pmap/2, test/0]).

pmap(F, Items) ->
    Parent = self(),
    Workers = [spawn(fun() -> Parent ! {self(), {result, F(I)}} end) || I <- Items],
    [receive {W, {result, R}} -> R end || W <- Workers].

test() ->
    [1, 4, 9] = pmap(fun(X) -> X * X end, [1, 2, 3]),
    ok.
