%% Two account mutexes implemented as processes; transfer/3 locks the source
%% account, then the destination.  Transfers a->b and b->a running together
%% can each hold one lock and wait forever for the other.  test/0 gives up
%% after a timeout so that it always returns under erl.
%% Expected: explore deadlock (the two transfer processes stay blocked).
-module(lock_order).
-export([new_mutex/0, transfer/3, test/0]).

new_mutex() ->
    spawn(fun() -> free() end).

free() ->
    receive
        {acquire, Pid} ->
            Pid ! {granted, self()},
            held(Pid);
        stop ->
            ok
    end.

held(Owner) ->
    receive
        {release, Owner} -> free()
    end.

acquire(Mutex) ->
    Mutex ! {acquire, self()},
    receive
        {granted, Mutex} -> ok
    end.

release(Mutex) ->
    Mutex ! {release, self()},
    ok.

transfer(From, To, Amount) ->
    acquire(From),
    acquire(To),
    Moved = {moved, Amount},
    release(To),
    release(From),
    Moved.

test() ->
    A = new_mutex(),
    B = new_mutex(),
    Self = self(),
    P1 = spawn(fun() -> Self ! {self(), transfer(A, B, 10)} end),
    P2 = spawn(fun() -> Self ! {self(), transfer(B, A, 5)} end),
    Result = [receive {P, R} -> R after 500 -> deadlock end || P <- [P1, P2]],
    A ! stop,
    B ! stop,
    Result.
