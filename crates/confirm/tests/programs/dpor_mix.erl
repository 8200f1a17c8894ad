%% Small concurrent programs whose every interleaving plain depth-first
%% search can enumerate: the DPOR test compares the end states it reaches
%% with those of the full enumeration. Each writes what it saw into ETS so
%% that the end state shows it, and then waits forever so that the tables
%% (which die with their owner) stay in the end state.
-module(dpor_mix).
-export([mailbox/0, selective/0, register_kill/0, down/0, counter/0,
         same_writes/0, timeouts/0, link_crash/0, two_register/0,
         terms/0, demonitor_race/0, equal_sends/0,
         name_before_exit/0, table_before_exit/0, waits/0,
         order_seen/0, order_unseen/0, guarded/0, counter3/0]).

table() ->
    ets:new(seen, [public, named_table, duplicate_bag]).

%% Two senders, one receiver taking messages in arrival order.
mailbox() ->
    table(),
    P = self(),
    spawn(fun() -> P ! a end),
    spawn(fun() -> P ! b end),
    X = receive M1 -> M1 end,
    Y = receive M2 -> M2 end,
    ets:insert(seen, {order, [X, Y]}),
    hold().

%% Selective receive: b first whatever arrives first, then the rest.
selective() ->
    table(),
    P = self(),
    spawn(fun() -> P ! a, P ! c end),
    spawn(fun() -> P ! b end),
    B = receive b -> b end,
    X = receive M1 -> M1 end,
    Y = receive M2 -> M2 end,
    ets:insert(seen, {order, [B, X, Y]}),
    hold().

%% A name taken, a process killed, the name looked up and retaken.
register_kill() ->
    table(),
    A = spawn(fun() -> register(svc, self()), receive stop -> ok end end),
    spawn(fun() ->
              case whereis(svc) of
                  undefined -> ets:insert(seen, {b, free});
                  Pid -> ets:insert(seen, {b, Pid =:= A})
              end
          end),
    exit(A, kill),
    ets:insert(seen, {main, whereis(svc)}),
    hold().

%% A monitor's 'DOWN' against a write by the watched process.
down() ->
    table(),
    {_, Ref} = spawn_monitor(fun() -> ets:insert(seen, {w, 1}) end),
    spawn(fun() -> ets:insert(seen, {other, ets:lookup(seen, w)}) end),
    receive {'DOWN', Ref, process, _, _} -> ok end,
    ets:insert(seen, {after_down, ets:lookup(seen, w)}),
    hold().

%% demonitor against the death of the watched process: whether the 'DOWN'
%% came depends on which ran first; another process monitoring and
%% demonitoring the same target meanwhile changes nothing here.
demonitor_race() ->
    table(),
    P = self(),
    T = spawn(fun() -> receive go -> ok end end),
    spawn(fun() -> R = monitor(process, T), demonitor(R), P ! watched end),
    Ref = monitor(process, T),
    T ! go,
    demonitor(Ref),
    receive watched -> ok end,
    Got = receive {'DOWN', Ref, process, _, _} -> down after 0 -> none end,
    ets:insert(seen, {down, Got}),
    hold().

%% Two lost-update increments.
counter() ->
    ets:new(c, [public, named_table]),
    ets:insert(c, {k, 0}),
    P = self(),
    [spawn(fun() -> [{k, V}] = ets:lookup(c, k), ets:insert(c, {k, V + 1}), P ! done end)
     || _ <- [1, 2]],
    [receive done -> ok end || _ <- [1, 2]],
    hold().

%% Three workers spawned one after another, each reading the counter and
%% writing it back: each worker's steps come after its spawn, and the
%% spawns after one another.
counter3() ->
    ets:new(c, [public, named_table]),
    ets:insert(c, {k, 0}),
    P = self(),
    Pids = [spawn(fun() -> [{k, V}] = ets:lookup(c, k), ets:insert(c, {k, V + 1}), P ! {done, self()} end)
            || _ <- [1, 2, 3]],
    [receive {done, W} -> ok end || W <- Pids],
    hold().

%% Identical writes (which commute) around a different one and reads.
same_writes() ->
    ets:new(s, [public, named_table]),
    spawn(fun() -> ets:insert(s, {k, 1}), ets:insert(s, {seen_a, ets:lookup(s, k)}) end),
    spawn(fun() -> ets:insert(s, {k, 1}) end),
    spawn(fun() -> ets:insert(s, {k, 2}), ets:insert(s, {seen_c, ets:lookup(s, k)}) end),
    hold().

%% A receive with a timeout racing a send.
timeouts() ->
    table(),
    P = self(),
    spawn(fun() -> P ! ping end),
    R = receive ping -> got after 10 -> timeout end,
    ets:insert(seen, {r, R}),
    hold().

%% A linked crash racing a write.
link_crash() ->
    table(),
    process_flag(trap_exit, true),
    spawn_link(fun() -> ets:insert(seen, {a, 1}), exit(boom) end),
    spawn(fun() -> ets:insert(seen, {b, ets:lookup(seen, a)}) end),
    receive {'EXIT', _, Why} -> ets:insert(seen, {exit, Why}) end,
    hold().

%% whereis then register, twice: the second register may fail.
two_register() ->
    table(),
    [spawn(fun() ->
               case whereis(svc) of
                   undefined ->
                       Result = (catch register(svc, self())),
                       ets:insert(seen, {I, Result});
                   _ -> ets:insert(seen, {I, taken})
               end,
               receive stop -> ok end
           end)
     || I <- [1, 2]],
    hold().

%% persistent_term read-modify-write by two processes, and an erase.
terms() ->
    table(),
    persistent_term:put(cfg, 0),
    [spawn(fun() -> V = persistent_term:get(cfg), persistent_term:put(cfg, V + I) end)
     || I <- [1, 10]],
    spawn(fun() -> ets:insert(seen, {erased, persistent_term:erase(cfg)}) end),
    hold().

hold() ->
    receive never_sent -> ok end.

%% Two processes send the same message: which one the first receive takes
%% decides whether `late` can come before the second `done`.
equal_sends() ->
    P = self(),
    spawn(fun() -> P ! done end),
    B = spawn(fun() -> P ! done, receive go -> P ! late end end),
    receive done -> ok end,
    B ! go,
    receive X -> done = X end,
    receive Y -> Y end.

%% A process registers a name as its last call: between the register and
%% its exit, others see the name held (the exit is a step of its own).
name_before_exit() ->
    table(),
    spawn(fun() -> register(holder, self()) end),
    ets:insert(seen, {name, is_pid(whereis(holder))}),
    hold().

%% The same for a named table its maker owns until it exits.
table_before_exit() ->
    table(),
    spawn(fun() -> ets:new(made, [named_table, public]) end),
    ets:insert(seen, {made, ets:info(made, size)}),
    hold().

%% Timeouts of different lengths against a message that may come first.
waits() ->
    table(),
    P = self(),
    spawn(fun() -> P ! ping end),
    A = receive ping -> ping after 10 -> short end,
    B = receive ping -> ping after 5000 -> long end,
    ets:insert(seen, {waits, A, B}),
    hold().

%% Three senders, and two receives that take any message: which two
%% arrive first, in which order, is what the parent records (6 ways).
order_seen() ->
    table(),
    Self = self(),
    [spawn(fun() -> Self ! {I, 1} end) || I <- [a, b, c]],
    X = receive M1 -> M1 end,
    Y = receive M2 -> M2 end,
    ets:insert(seen, {X, Y}),
    receive stop -> ok end.

%% Three senders, and a receive per sender that takes only its message:
%% no receive can tell the order of the sends apart (one run).
order_unseen() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self()} end) || _ <- [1, 2, 3]],
    [receive {done, P} -> ok end || P <- Pids],
    ok.

%% A guard picks some messages, `after 0` takes none if none is there.
%% (The parents keep their tables: they wait for a message never sent.)
guarded() ->
    table(),
    Self = self(),
    spawn(fun() -> Self ! {n, 1} end),
    spawn(fun() -> Self ! {n, 2} end),
    R = receive {n, N} when N > 1 -> N after 0 -> none end,
    ets:insert(seen, {got, R}),
    receive stop -> ok end.
