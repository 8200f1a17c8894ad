%% Checks: a lock server serializes read-modify-write on a shared ETS counter, so concurrent increments never get lost.
-module(conc_lock_server).
-export([main/0]).

lock_loop() ->
    receive
        {acquire, From} ->
            From ! granted,
            receive {release, From} -> lock_loop() end
    end.

with_lock(L, F) ->
    L ! {acquire, self()},
    receive granted -> ok end,
    R = F(),
    L ! {release, self()},
    R.

main() ->
    T = ets:new(shared, [public]),
    ets:insert(T, {n, 0}),
    L = spawn(fun lock_loop/0),
    Self = self(),
    Workers = 8, Per = 40,
    [spawn(fun() ->
                   [with_lock(L, fun() ->
                                         [{n, V}] = ets:lookup(T, n),
                                         erlang:yield(),
                                         ets:insert(T, {n, V + 1})
                                 end) || _ <- lists:seq(1, Per)],
                   Self ! done
           end) || _ <- lists:seq(1, Workers)],
    [receive done -> ok end || _ <- lists:seq(1, Workers)],
    io:format("~p~n", [ets:lookup(T, n)]),
    exit(L, kill),
    ets:lookup_element(T, n, 2) =:= Workers * Per.
