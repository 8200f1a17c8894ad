%% Checks: named_table access by name, public/protected/private rights from another process (badarg), info protection/named_table/owner.
-module(ets_named_access).
-export([main/0]).

from_other(F) ->
    Self = self(),
    spawn(fun() -> Self ! {res, try F() catch error:R -> {error, R} end} end),
    receive {res, X} -> X end.

main() ->
    rw_pub = ets:new(rw_pub, [named_table, public]),
    rw_prot = ets:new(rw_prot, [named_table, protected]),
    rw_priv = ets:new(rw_priv, [named_table, private]),
    [ets:insert(T, {k, T}) || T <- [rw_pub, rw_prot, rw_priv]],
    io:format("~p~n", [[ets:info(T, protection) || T <- [rw_pub, rw_prot, rw_priv]]]),
    io:format("~p~n", [ets:info(rw_pub, named_table)]),
    io:format("~p~n", [ets:info(rw_pub, owner) =:= self()]),
    io:format("pub read:   ~p~n", [from_other(fun() -> ets:lookup(rw_pub, k) end)]),
    io:format("pub write:  ~p~n", [from_other(fun() -> ets:insert(rw_pub, {k2, v}) end)]),
    io:format("prot read:  ~p~n", [from_other(fun() -> ets:lookup(rw_prot, k) end)]),
    io:format("prot write: ~p~n", [from_other(fun() -> ets:insert(rw_prot, {k2, v}) end)]),
    io:format("priv read:  ~p~n", [from_other(fun() -> ets:lookup(rw_priv, k) end)]),
    io:format("priv write: ~p~n", [from_other(fun() -> ets:insert(rw_priv, {k2, v}) end)]),
    io:format("owner priv: ~p~n", [ets:lookup(rw_priv, k)]),
    io:format("~p~n", [lists:sort(ets:tab2list(rw_pub))]),
    E = try ets:new(rw_pub, [named_table]) catch error:R -> R end,
    io:format("dup name: ~p~n", [E]),
    io:format("~p~n", [ets:info(rw_no_such_table)]),
    ets:whereis(rw_pub) =/= undefined.
