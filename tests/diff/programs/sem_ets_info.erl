%% Checks: ets:info/1,2 items (name, named_table, type, keypos, protection, size, heir, owner, ...) in the BEAM's order; an heir that is gone already is none; unknown items are badarg; a table that is gone is undefined.
-module(sem_ets_info).
-export([main/0, loop/0]).

c(F) -> try F() catch C:R -> {C, R} end.

loop() -> receive stop -> ok end.

main() ->
    P = spawn(?MODULE, loop, []),
    T = ets:new(tab, [set, protected, {keypos, 2}, named_table, {heir, P, data}]),
    ets:insert(T, [{a, 1}, {b, 2}]),
    Items = [name, named_table, type, keypos, protection, size, compressed,
             read_concurrency, write_concurrency, decentralized_counters, node,
             fixed, safe_fixed, safe_fixed_monotonic_time],
    I1 = [ets:info(T, K) || K <- Items],
    Heir = ets:info(T, heir) =:= P,
    Owner = ets:info(T, owner) =:= self(),
    Dead = spawn(fun() -> ok end),
    timer:sleep(10),
    T2 = ets:new(tab2, [bag, public, {heir, Dead, x}]),
    I2 = [ets:info(T2, K) || K <- [name, named_table, type, keypos, protection, size, heir]],
    Keys = [K || {K, _} <- ets:info(T)],
    Bad = c(fun() -> ets:info(T, bad_item) end),
    ets:delete(T2),
    Gone = {ets:info(T2), ets:info(T2, size), ets:info(no_such_table, size)},
    P ! stop,
    {I1, Heir, Owner, I2, Keys, Bad, Gone}.
