%% racewit's runner for EUnit test generators (`*_test_/0`), loaded beside
%% the user's code when a generator is a suspect's context. It runs a test
%% representation the way eunit does, one test after the other: fixtures
%% (`setup`, `foreach`, `foreachx`) set up and torn down around their tests,
%% `setup` in a process of its own by default, instantiators given the
%% setup's result, `spawn` and `inparallel` groups in processes of their own.
%% Each simple test runs in a process of its own that the runner waits for,
%% so a failing test is a crashed process racewit sees, and the next test
%% still runs. What needs another node (`node`, `{spawn, Node}`) is skipped.
-module(racewit_eunit).
-export([run/2]).

run(M, F) ->
    tests(M:F()),
    ok.

tests([]) -> ok;
tests([T | Ts]) -> tests(T), tests(Ts);
tests(F) when is_function(F, 0) -> simple(F);
tests({L, F}) when is_integer(L), is_function(F, 0) -> simple(F);
tests({M, F}) when is_atom(M), is_atom(F) -> simple(fun() -> M:F() end);
tests({generator, G}) when is_function(G, 0) -> tests(G());
tests({generator, M, F}) when is_atom(M), is_atom(F) -> tests(M:F());
tests({setup, S, I}) -> setup(spawn, S, fun(_) -> ok end, I);
tests({setup, S, C, I}) -> setup(spawn, S, C, I);
tests({setup, W, S, C, I}) -> setup(W, S, C, I);
tests({foreach, S, Is}) -> foreach(S, fun(_) -> ok end, Is);
tests({foreach, S, C, Is}) -> foreach(S, C, Is);
tests({foreach, _W, S, C, Is}) -> foreach(S, C, Is);
tests({foreachx, S, Ps}) -> foreachx(S, fun(_, _) -> ok end, Ps);
tests({foreachx, S, C, Ps}) -> foreachx(S, C, Ps);
tests({foreachx, _W, S, C, Ps}) -> foreachx(S, C, Ps);
tests({with, X, Fs}) -> [simple(fun() -> F(X) end) || F <- Fs], ok;
tests({with, Fs}) when is_list(Fs) -> ok;
tests({spawn, T}) -> in_process(fun() -> tests(T) end);
tests({spawn, _Node, _T}) -> ok;
tests({node, _, _}) -> ok;
tests({node, _, _, _}) -> ok;
tests({timeout, _, T}) -> tests(T);
tests({inorder, T}) -> tests(T);
tests({inparallel, T}) -> parallel(T);
tests({inparallel, _N, T}) -> parallel(T);
tests({Title, T}) when is_list(Title); is_binary(Title) -> tests(T);
tests(_Other) -> ok.

%% A test in a process of its own; the runner goes on whatever it did.
simple(F) ->
    {Pid, Ref} = spawn_monitor(fun() -> F() end),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

setup(local, S, C, I) -> fixture(S, C, I);
setup(_Spawn, S, C, I) -> in_process(fun() -> fixture(S, C, I) end).

fixture(S, C, I) ->
    R = S(),
    try tests(instantiate(I, R))
    after C(R)
    end.

foreach(S, C, Is) ->
    [fixture(S, C, I) || I <- Is],
    ok.

foreachx(S, C, Ps) ->
    [begin
         R = S(X),
         try tests(P(X, R))
         after C(X, R)
         end
     end || {X, P} <- Ps],
    ok.

instantiate(I, R) when is_function(I, 1) -> I(R);
instantiate(T, _) -> T.

in_process(F) ->
    {Pid, Ref} = spawn_monitor(F),
    receive {'DOWN', Ref, process, Pid, _} -> ok end.

parallel(Ts) when is_list(Ts) ->
    Ws = [spawn_monitor(fun() -> tests(T) end) || T <- Ts],
    [receive {'DOWN', Ref, process, Pid, _} -> ok end || {Pid, Ref} <- Ws],
    ok;
parallel(T) -> tests(T).
