%% One-time gift tokens: redeem/2 looks the token up, deletes it and credits
%% its amount to the wallet.  Two concurrent redemptions of one token can both
%% find it before either deletes it, so the amount is credited twice.
%% Expected: R002 confirmed, non_serializable (wallet credited twice), bound 1.
-module(token_redeem).
-export([setup/0, issue/2, redeem/2, balance/1, teardown/0, test/0]).

-define(TAB, gift_tokens).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    issue(<<"GIFT-7Q2">>, 25),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

issue(Token, Amount) ->
    true = ets:insert_new(?TAB, {{token, Token}, Amount}).

redeem(Token, Wallet) ->
    case ets:lookup(?TAB, {token, Token}) of
%%       ^^^^^^^^^^ R002 #1 read: ets gift_tokens/{token, <Token>} (confirmed, non_serializable)
        [{_, Amount}] ->
            ets:delete(?TAB, {token, Token}),
%%          ^^^^^^^^^^ R002 #1 write: deletes a token another redemption already used
            ets:update_counter(?TAB, {wallet, Wallet}, Amount, {{wallet, Wallet}, 0}),
            {ok, Amount};
        [] ->
            {error, invalid_token}
    end.

balance(Wallet) ->
    case ets:lookup(?TAB, {wallet, Wallet}) of
        [{_, B}] -> B;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), redeem(<<"GIFT-7Q2">>, bob)} end) || _ <- [1, 2]],
    Results = lists:sort([receive {P, R} -> R end || P <- Pids]),
    B = balance(bob),
    teardown(),
    {Results, B}.
