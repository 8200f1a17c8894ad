%% A test module (its name ends in _tests) with a check-then-insert of its
%% own, as tests often have: it fills a fixture table if it is empty.  Test
%% code is analysed, but its own pairs are not reported (--include-tests
%% reports them).
%% Expected: R002 filtered (the pair is in test code).
-module(cache_tests).
-export([fixture/0, test/0]).

fixture() ->
    case ets:info(fixture, size) of
%%           ^^^^ R002 #1 read: ets fixture, in test code (filtered)
        0 -> ets:insert(fixture, [{a, 1}, {b, 2}]);
%%           ^^^^^^^^^^ R002 #1 write: a test's own fixture
        _ -> true
    end.

test() ->
    ets:new(fixture, [named_table, public]),
    true = fixture(),
    N = ets:info(fixture, size),
    ets:delete(fixture),
    N.
