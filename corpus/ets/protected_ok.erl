%% A usage meter whose table is protected: anyone may read it, but only the
%% owner process writes, and it handles one {charge, ...} message at a time.
%% The read-modify-write in the owner's loop is therefore serialized.
%% Expected: filtered (table is not public; only its owner writes).
-module(protected_ok).
-export([start/0, charge/2, usage/1, stop/0, test/0]).

-define(TAB, usage_meter).

start() ->
    Parent = self(),
    Pid = spawn(fun() ->
                        ets:new(?TAB, [named_table, protected, set]),
                        Parent ! {meter_ready, self()},
                        meter_loop()
                end),
    receive {meter_ready, Pid} -> ok end,
    register(usage_meter_owner, Pid),
    ok.

charge(Account, Units) ->
    Ref = monitor(process, usage_meter_owner),
    usage_meter_owner ! {charge, self(), Ref, Account, Units},
    receive
        {Ref, charged} -> demonitor(Ref, [flush]), ok;
        {'DOWN', Ref, process, _, Reason} -> {error, Reason}
    end.

usage(Account) ->
    case ets:lookup(?TAB, Account) of
        [{Account, U}] -> U;
        [] -> 0
    end.

stop() ->
    usage_meter_owner ! stop,
    ok.

meter_loop() ->
    receive
        {charge, From, Ref, Account, Units} ->
            Old = case ets:lookup(?TAB, Account) of
%%                     ^^^^^^^^^^ R002 #1 read (filtered): protected table, owner only
                      [{Account, U}] -> U;
                      [] -> 0
                  end,
            ets:insert(?TAB, {Account, Old + Units}),
%%          ^^^^^^^^^^ R002 #1 write (filtered): only the owner can write a protected table
            From ! {Ref, charged},
            meter_loop();
        stop ->
            ok
    end.

test() ->
    ok = start(),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), charge(acme, 5)} end) || _ <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    U = usage(acme),
    stop(),
    U.
