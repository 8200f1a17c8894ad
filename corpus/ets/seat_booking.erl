%% Seat booking with capacity 2: book/0 checks the `status` row, records the
%% holder, counts holders and marks the flight full at capacity.  With two
%% bookers a stale `open` is harmless; a third booker that read `open` before
%% the flight filled up overbooks it and crashes after writing `full`.
%% Expected: R002 #1 confirmed, non_serializable (two bookers both told {ok, 2}), bound 1, 2 processes; #2 filtered.
-module(seat_booking).
-export([setup/0, book/0, holders/0, teardown/0, test/0]).

-define(TAB, seats).
-define(CAPACITY, 2).

setup() ->
    ets:new(?TAB, [named_table, public, set]),
    ets:insert(?TAB, {status, open}),
    ok.

teardown() ->
    ets:delete(?TAB),
    ok.

holders() ->
    length(ets:match_object(?TAB, {{holder, '_'}, '_'})).

book() ->
    case ets:lookup(?TAB, status) of
%%       ^^^^^^^^^^ R002 #1 #2 read: ets seats/status
        [{status, full}] ->
            {error, full};
        [{status, open}] ->
            ets:insert(?TAB, {{holder, self()}, booked}),
%%          ^^^^^^^^^^ R002 #2 write (filtered): key {holder, Pid} never equals status
            Booked = holders(),
            case Booked >= ?CAPACITY of
                true -> ets:insert(?TAB, {status, full});
%%                      ^^^^^^^^^^ R002 #1 write: a stale reader marks full, then finds 3 holders
                false -> ok
            end,
            case Booked > ?CAPACITY of
                true -> exit(overbooked);
                false -> {ok, Booked}
            end
    end.

test() ->
    setup(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch book()} end) || _ <- [1, 2, 3]],
    Results = [receive {P, R} -> R end || P <- Pids],
    N = holders(),
    teardown(),
    {lists:sort(Results), N}.
