%% A lost wake-up: the waiter registers itself and waits for `go`; the
%% notifier sends `go` only if it finds the waiter registered, and otherwise
%% assumes nobody is waiting.  If the notifier runs first the waiter blocks
%% forever.  Expected: explore deadlock.  The whereis/register pair sits in
%% two different processes with no path between them: R001 filtered.
-module(lost_wakeup).
-export([waiter/1, notify/0, test/0]).

waiter(Parent) ->
    register(ready_waiter, self()),
%%  ^^^^^^^^ R001 #1 write (filtered): in the waiter, not after the notifier's read
    receive
        go -> Parent ! {woken, self()}
    end.

notify() ->
    case whereis(ready_waiter) of
%%       ^^^^^^^ R001 #1 read (filtered): the notifier never registers anything
        undefined -> nobody_waiting;
        Pid -> Pid ! go, notified
    end.

test() ->
    Self = self(),
    Waiter = spawn(fun() -> waiter(Self) end),
    spawn(fun() -> notify() end),
    receive
        {woken, Waiter} -> woken
    after 500 ->
        missed_wakeup
    end.
