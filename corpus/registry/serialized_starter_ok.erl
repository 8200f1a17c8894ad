%% All check-then-register work is funnelled through one long-lived starter
%% process: clients only send it requests, so the whereis/register pair only
%% ever runs in that single process.  Expected: R001 filtered (no interleaving
%% of start_child/1 callers can break it; the static pass sees the one process).
-module(serialized_starter_ok).
-export([start/0, start_child/1, stop/0, test/0]).

start() ->
    Pid = spawn(fun() -> starter_loop() end),
    register(child_starter, Pid),
    ok.

start_child(Name) when is_atom(Name) ->
    Ref = monitor(process, child_starter),
    child_starter ! {start_child, self(), Ref, Name},
    receive
        {Ref, Reply} ->
            demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, process, _, Reason} ->
            {error, Reason}
    end.

stop() ->
    child_starter ! stop,
    ok.

starter_loop() ->
    receive
        {start_child, From, Ref, Name} ->
            Reply = case whereis(Name) of
%%                       ^^^^^^^ R001 #1 read: registry <Name>, only in the starter process
                        undefined ->
                            Child = spawn(fun() -> child_loop() end),
                            register(Name, Child),
%%                          ^^^^^^^^ R001 #1 write: serialized by the starter's mailbox
                            {ok, Child};
                        Pid ->
                            {ok, Pid}
                    end,
            From ! {Ref, Reply},
            starter_loop();
        stop ->
            ok
    end.

child_loop() ->
    receive
        stop -> ok;
        _ -> child_loop()
    end.

test() ->
    start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), start_child(uploader)} end) || _ <- [1, 2]],
    [{ok, C}, {ok, C}] = [receive {P, R} -> R end || P <- Pids],
    C ! stop,
    stop(),
    ok.
