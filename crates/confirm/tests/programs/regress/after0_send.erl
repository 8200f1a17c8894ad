%% A `receive ... after 0` that finds nothing against a send to the same
%% mailbox (random program seeds 26, 50, 170, 277): the empty receive was
%% no event, so DPOR took it as independent of the send and saw only one
%% of `a` and `none`.
-module(after0_send).
-export([main/0]).

main() ->
    Self = self(),
    spawn(fun() -> Self ! a end),
    receive M -> M after 0 -> none end.
