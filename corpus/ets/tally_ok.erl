%% Per-route hit tallies: a member/2 check picks between an atomic
%% update_counter/3 and an insert_new/2 whose false retries.  Nothing ever
%% removes a tally, so a key found stays found, and a lost insert_new retries.
%% Expected: filtered (atomic update after a check; insert_new with a branch).
-module(tally_ok).
-export([setup/0, hit/1, count/1, teardown/0, test/0]).

-define(TAB, route_tally).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

hit(Route) ->
    case ets:member(?TAB, Route) of
%%       ^^^^^^^^^^ R002 #1 #2 read (filtered): a key found stays found
        true ->
            ets:update_counter(?TAB, Route, 1);
%%          ^^^^^^^^^^^^^^^^^^ R002 #1 write (filtered): atomic, adds to the value in the table
        false ->
            case ets:insert_new(?TAB, {Route, 1}) of
%%               ^^^^^^^^^^^^^^ R002 #2 write (filtered): its false retries
                true -> 1;
                false -> hit(Route)
            end
    end.

count(Route) ->
    case ets:lookup(?TAB, Route) of
        [{Route, N}] -> N;
        [] -> 0
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), hit(home)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    N = count(home),
    teardown(),
    N.
