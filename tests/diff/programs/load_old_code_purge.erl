%% Checks: old and current code as the BEAM keeps them: a process waiting
%% in a loaded module's function keeps running the old version after a
%% reload, soft_purge/1 refuses while it does, erlang:load_module/2 is
%% refused with not_purged, purge/1 kills it, and code:load_binary/3
%% purges before loading. A call written `versioned:version()` reaches
%% the current code too.
-module(load_old_code_purge).
-export([main/0]).

%% A module `Mod` whose wait/1 tells its parent it is ready, waits for
%% `go` then answers its version; version/0 answers it at once.
forms(Mod, Version) ->
    [{attribute, 1, module, Mod},
     {attribute, 1, export, [{wait, 1}, {version, 0}]},
     {function, 2, wait, 1,
      [{clause, 2, [{var, 2, 'Parent'}], [],
        [{op, 2, '!', {var, 2, 'Parent'}, {atom, 2, ready}},
         {'receive', 2, [{clause, 2, [{tuple, 2, [{atom, 2, go}, {var, 2, 'From'}]}], [],
                          [{op, 2, '!', {var, 2, 'From'}, {tuple, 2, [{atom, 2, version},
                                                                      {integer, 2, Version}]}}]}]}]}]},
     {function, 3, version, 0, [{clause, 3, [], [], [{integer, 3, Version}]}]}].

waiter(M) ->
    W = spawn(M, wait, [self()]),
    receive ready -> ok end,
    {W, monitor(process, W)}.

bin(Mod, Version) ->
    {ok, Mod, Bin} = compile:forms(forms(Mod, Version)),
    Bin.

reason({'EXIT', {R, _Stack}}) -> R;
reason(V) -> V.

main() ->
    M = versioned,
    {module, M} = code:load_binary(M, "v1.erl", bin(M, 1)),
    io:format("static call: ~p~n", [versioned:version()]),
    {Waiter, Ref} = waiter(M),
    {module, M} = code:load_binary(M, "v2.erl", bin(M, 2)),
    io:format("current: ~p ~p, old code: ~p~n",
              [M:version(), versioned:version(), erlang:check_old_code(M)]),
    io:format("load_module over old code: ~p~n", [erlang:load_module(M, bin(M, 3))]),
    io:format("soft_purge while running: ~p ~p~n", [code:soft_purge(M), is_process_alive(Waiter)]),
    io:format("purge: ~p~n", [code:purge(M)]),
    receive {'DOWN', Ref, process, Waiter, Why} -> io:format("waiter: ~p~n", [Why]) end,
    io:format("old code after purge: ~p~n", [erlang:check_old_code(M)]),
    %% A waiter in v2; loading v3 with load_binary keeps it (v2 becomes
    %% old); loading v4 purges v2 first, killing it.
    {W2, R2} = waiter(M),
    {module, M} = code:load_binary(M, "v3.erl", bin(M, 3)),
    W2 ! {go, self()},
    receive {version, V} -> io:format("old code answered: ~p~n", [V]) end,
    receive {'DOWN', R2, process, W2, Why2} -> io:format("w2: ~p~n", [Why2]) end,
    {W3, R3} = waiter(M),
    {module, M} = code:load_binary(M, "v4.erl", bin(M, 4)),
    {module, M} = code:load_binary(M, "v5.erl", bin(M, 5)),
    receive {'DOWN', R3, process, W3, Why3} -> io:format("w3: ~p~n", [Why3]) end,
    io:format("soft_purge with none running: ~p ~p~n", [code:soft_purge(M), code:is_loaded(M)]),
    io:format("delete: ~p ~p ~p~n", [code:delete(M), reason(catch erlang:delete_module(M)),
                                     reason(catch M:version())]),
    io:format("erlang:delete_module of nothing: ~p~n", [erlang:delete_module(no_such_module_x)]),
    M:version().
