%% Checks: messages from one sender arrive in send order; interleaving between senders is not assumed (per-sender sequences checked).
-module(conc_mailbox_order).
-export([main/0]).

collect(0, Acc) -> Acc;
collect(N, Acc) -> receive {S, I} -> collect(N - 1, maps:update_with(S, fun(L) -> [I | L] end, [I], Acc)) end.

main() ->
    Main = self(),
    Senders = [a, b, c],
    [spawn(fun() -> [Main ! {S, I} || I <- lists:seq(1, 100)] end) || S <- Senders],
    M = collect(300, #{}),
    InOrder = maps:map(fun(_, L) -> lists:reverse(L) =:= lists:seq(1, 100) end, M),
    io:format("~p~n", [InOrder]),
    Self = self(),
    [Self ! N || N <- lists:seq(1, 5)],
    io:format("~p~n", [[receive N -> N end || _ <- lists:seq(1, 5)]]),
    {message_queue_len, Q} = process_info(self(), message_queue_len),
    Q.
