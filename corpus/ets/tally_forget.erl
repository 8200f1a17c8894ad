%% The same tallies with forget/1, which deletes a route's tally.  A forget
%% between hit/1's member/2 and its update_counter/3 makes the update raise
%% badarg: the check went stale.
%% Expected: R002 reported (a delete of the table can come between).
-module(tally_forget).
-export([setup/0, hit/1, forget/1, teardown/0, test/0]).

-define(TAB, route_tally_f).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

hit(Route) ->
    case ets:member(?TAB, Route) of
%%       ^^^^^^^^^^ R002 #1 read: ets route_tally_f/<Route>
        true ->
            ets:update_counter(?TAB, Route, 1);
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 write: badarg when the tally was forgotten meanwhile
        false ->
            case ets:insert_new(?TAB, {Route, 1}) of
                true -> 1;
                false -> hit(Route)
            end
    end.

forget(Route) ->
    ets:delete(?TAB, Route).

test() ->
    setup(),
    hit(home),
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), hit(home)} end),
    P2 = spawn(fun() -> Self ! {self(), forget(home)} end),
    [receive {P, R} -> R after 1000 -> crashed end || P <- [P1, P2]],
    teardown(),
    ok.
