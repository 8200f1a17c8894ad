%% The same cluster singleton, with the check and the registration wrapped
%% in global:trans/2 on a lock for the name: only one caller at a time runs
%% the body, so the lookup cannot go stale before register_name/2.
%% Expected: R005 filtered (the lock serializes it; the static pass sees the lock).
-module(singleton_trans_ok).
-export([start/0, stop/0, test/0]).

-define(NAME, {?MODULE, leader}).

start() ->
    global:trans({?NAME, self()},
                 fun() ->
                         case global:whereis_name(?NAME) of
%%                            ^^^^^^^^^^^^^^^^^^^ R005 #1 read: global {singleton_trans_ok, leader}, under a lock
                             undefined ->
                                 Pid = spawn(fun() -> loop() end),
                                 yes = global:register_name(?NAME, Pid),
%%                                     ^^^^^^^^^^^^^^^^^^^^ R005 #1 write: still under the same lock (filtered)
                                 Pid;
                             Pid ->
                                 Pid
                         end
                 end).

stop() ->
    case global:whereis_name(?NAME) of
        undefined -> ok;
        Pid -> global:unregister_name(?NAME), Pid ! stop, ok
    end.

loop() ->
    receive
        stop -> ok;
        _ -> loop()
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), start()} end) || _ <- [1, 2]],
    [A, B] = [receive {P, R} -> R end || P <- Pids],
    stop(),
    A =:= B.
