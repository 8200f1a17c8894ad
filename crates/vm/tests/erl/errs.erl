-module(errs).
-export([main/0, idle/0]).
-record(r, {a, b}).

idle() -> receive stop -> ok end.

c(F) -> try F() of V -> {ok, V} catch C:R -> {C, R} end.

other(F) ->
    Self = self(),
    spawn(fun() -> Self ! {res, c(F)} end),
    receive {res, R} -> R end.

main() ->
    Prot = ets:new(prot, [named_table, protected]),
    Priv = ets:new(priv, [named_table, private]),
    Pub = ets:new(pub, [named_table, public]),
    ets:insert(Prot, {k, 1}),
    ets:insert(Priv, {k, 1}),
    Dead = spawn(fun() -> ok end),
    Ref = erlang:monitor(process, Dead),
    receive {'DOWN', Ref, _, _, _} -> ok end,
    Idle = spawn(?MODULE, idle, []),
    register(taken, Idle),
    X = list_to_atom("x"),
    Results = [
        {ets_protected_write_other, other(fun() -> ets:insert(prot, {k, 2}) end)},
        {ets_protected_read_other, other(fun() -> ets:lookup(prot, k) end)},
        {ets_private_read_other, other(fun() -> ets:lookup(priv, k) end)},
        {ets_public_write_other, other(fun() -> ets:insert(pub, {k, 3}) end)},
        {ets_lookup_element_missing, c(fun() -> ets:lookup_element(prot, nokey, 2) end)},
        {ets_lookup_element_badpos, c(fun() -> ets:lookup_element(prot, k, 5) end)},
        {ets_update_counter_missing, c(fun() -> ets:update_counter(pub, nokey, 1) end)},
        {ets_insert_not_tuple, c(fun() -> ets:insert(pub, notatuple) end)},
        {ets_new_name_taken, c(fun() -> ets:new(pub, [named_table]) end)},
        {ets_no_table, c(fun() -> ets:lookup(no_such_table, k) end)},
        {register_taken, c(fun() -> register(taken, self()) end)},
        {register_dead, c(fun() -> register(fresh, Dead) end)},
        {register_undefined, c(fun() -> register(undefined, self()) end)},
        {register_twice, c(fun() -> register(taken2, Idle) end)},
        {unregister_missing, c(fun() -> unregister(nobody) end)},
        {send_unregistered, c(fun() -> nobody ! hi end)},
        {badmatch, c(fun() -> {a, _} = {b, X} end)},
        {case_clause, c(fun() -> case X of y -> 1 end end)},
        {if_clause, c(fun() -> if X =:= y -> 1 end end)},
        {function_clause, c(fun() -> lists:nth(0, [a]) end)},
        {try_clause, c(fun() -> try X of y -> 1 catch _ -> 2 end end)},
        {badarith, c(fun() -> 1 + X end)},
        {undef, c(fun() -> lists:no_such_fun(X) end)},
        {badfun, c(fun() -> F = X, F() end)},
        {badarity, case c(fun() -> F = fun(A) -> A end, F() end) of {error, {badarity, {Fn, As}}} -> {error, {badarity, {is_function(Fn), As}}}; O -> O end},
        {badkey, c(fun() -> maps:get(nokey, #{a => X}) end)},
        {badmap, c(fun() -> maps:get(a, X) end)},
        {badrecord, c(fun() -> R = {X}, R#r.a end)},
        {noproc_link, begin {_, ML} = spawn_monitor(fun() -> link(Dead), exit(survived) end), receive {'DOWN', ML, _, _, WL} -> element(1, WL) end end},
        {noproc_call, case c(fun() -> gen_server:call(Dead, hi) end) of {exit, {noproc, {gen_server, call, [P, hi]}}} when P =:= Dead -> noproc; O2 -> O2 end},
        {noproc_call_name, c(fun() -> gen_server:call(nobody_here, hi) end)},
        {timeout_call, c(fun() -> gen_server:call(Idle, hi, 10) end)},
        {throw, c(fun() -> throw(X) end)},
        {exit, c(fun() -> exit(X) end)},
        {catch_exit, (catch exit(X))},
        {catch_throw, (catch throw(X))},
        {catch_error, element(1, element(2, (catch error(X))))},
        {exit_kill_trapped, begin process_flag(trap_exit, true), V = spawn_link(?MODULE, idle, []), exit(V, kill), receive {'EXIT', V, Why} -> Why end end},
        {monitor_dead, begin M = erlang:monitor(process, Dead), receive {'DOWN', M, process, _, Why2} -> Why2 end end},
        {spawn_bad_fun, c(fun() -> spawn(X) end)}
    ],
    lists:foreach(fun(R) -> io:format("~p.~n", [R]) end, Results),
    ok.
