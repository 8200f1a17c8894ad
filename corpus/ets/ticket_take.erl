%% One-time tickets: redeem/1 checks that the ticket is there, then takes
%% it out with take/2 and matches the one object it expects.  A second
%% redeemer that checked in between finds it gone and crashes.
%% Expected: R002 confirmed, crash (badmatch on the empty take).
-module(ticket_take).
-export([setup/0, teardown/0, redeem/1, test/0]).

setup() ->
    ets:new(tickets, [named_table, public]),
    ets:insert(tickets, {t42, 50}),
    ok.

teardown() ->
    ets:delete(tickets),
    ok.

redeem(Ticket) ->
    case ets:member(tickets, Ticket) of
%%            ^^^^^^ R002 #1 read: ets tickets/<Ticket> (confirmed, crash)
        true ->
            [{Ticket, Amount}] = ets:take(tickets, Ticket),
%%                               ^^^^^^^^ R002 #1 write: the ticket another redeemer took
            {ok, Amount};
        false ->
            {error, unknown_ticket}
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch redeem(t42)} end) || _ <- [1, 2]],
    R = lists:sort([receive {P, X} -> X end || P <- Pids]),
    teardown(),
    R.
