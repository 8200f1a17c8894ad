%% Checks: ets:match_spec_compile/1 (badarg on an invalid spec, a trace-only one, a non-list), ets:is_compiled_ms/1 (refs, other terms), ets:match_spec_run/2 over objects that match or not, order of results, a raw spec refused, and a compiled spec used from another process.
-module(ms_compile_run).
-export([main/0]).

try_it(F) -> try F() catch C:R -> {C, R} end.

main() ->
    Spec = [{{'$1', '$2'}, [{'>', '$2', 1}], [{{'$2', '$1'}}]}, {{'$1'}, [], ['$1']}],
    C = ets:match_spec_compile(Spec),
    C2 = ets:match_spec_compile(Spec),
    io:format("~p~n", [[is_reference(C), C =:= C2, C =:= C, ets:is_compiled_ms(C)]]),
    io:format("~p~n", [[ets:is_compiled_ms(X) || X <- [foo, make_ref(), Spec, <<>>, {C}]]]),
    Objs = [{a, 1}, {b, 2}, c, {d}, {e, 3, x}, {f, 5}, [g]],
    io:format("~p~n", [ets:match_spec_run(Objs, C)]),
    io:format("~p~n", [ets:match_spec_run([], C)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_run(Objs, Spec) end)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_run(foo, C) end)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_compile(foo) end)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_compile([]) end)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_compile([{'_', [], [{message, 1}]}]) end)]),
    io:format("~p~n", [try_it(fun() -> ets:match_spec_compile([{'_', [], ['$1']}]) end)]),
    W = ets:match_spec_compile([{'$1', [], ['$_', '$$']}]),
    io:format("~p~n", [ets:match_spec_run([1, {2}, "three"], W)]),
    E = ets:match_spec_compile([{{'$1'}, [], [{element, 2, '$_'}]}]),
    io:format("~p~n", [ets:match_spec_run([{1}, {2}], E)]),
    Parent = self(),
    spawn(fun() -> Parent ! {ran, ets:match_spec_run([{z, 9}], C), ets:is_compiled_ms(C)} end),
    receive {ran, R, B} -> io:format("~p~n", [{R, B}]) end,
    T = ets:new(t, [ordered_set]),
    ets:insert(T, [{k1, 1}, {k2, 2}, {k3, 3}]),
    io:format("~p~n", [ets:match_spec_run(ets:tab2list(T), C)]),
    io:format("~p~n", [try_it(fun() -> ets:select(T, C) end)]),
    done.
