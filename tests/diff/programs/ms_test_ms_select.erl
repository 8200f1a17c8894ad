%% Checks: ets:test_ms/2 (valid, no match, 'EXIT' in a body, invalid specs with their errors) and ets:select/2, select_count/2, select_delete/2 refusing a spec the compiler rejects (badarg) while a valid one with {self}, {const, _} and band guards works.
-module(ms_test_ms_select).
-export([main/0]).

try_it(F) -> try F() catch C:R -> {C, R} end.

main() ->
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [], ['$1']}])]),
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [{'>', '$2', 5}], ['$1']}])]),
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [], [{'+', '$1', '$2'}]}])]),
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [], [{message, 1}]}])]),
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [{is_integer, '$3'}], ['$1']}])]),
    io:format("~p~n", [ets:test_ms({a, 1}, foo)]),
    io:format("~p~n", [ets:test_ms({a, 1}, [{{'$1', '$2'}, [], [{{'$1', [{'$2'}]}}]}])]),
    io:format("~p~n", [ets:test_ms({a, [1, 2]}, [{{'$1', ['$2' | '$3']}, [], [{{'$3', '$2', '$$'}}]}])]),
    T = ets:new(t, [set, public]),
    ets:insert(T, [{N, N * 3, [N]} || N <- lists:seq(1, 8)]),
    Odd = [{{'$1', '$2', '_'}, [{'=:=', {'band', '$1', 1}, 1}], [{{'$1', '$2', {const, odd}}}]}],
    io:format("~p~n", [lists:sort(ets:select(T, Odd))]),
    Mine = ets:select(T, [{{'$1', '_', '_'}, [{'<', '$1', 3}], [{{'$1', {self}}}]}]),
    io:format("~p~n", [lists:sort([{K, P =:= self()} || {K, P} <- Mine])]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '_', '$3'}, [{'orelse', {'==', '$1', 2}, {'==', {hd, '$3'}, 7}}], ['$_']}]))]),
    io:format("~p~n", [lists:sort(ets:select(T, [{{'$1', '$2', '_'}, [{'>', '$1', 6}], [{'div', '$2', 0}]}]))]),
    Bad = [[{'_', [], ['$1']}], [{'_', [], [{return_trace}]}], [{'_', [], [{foo, 1}]}], [{'_', [], []}], foo],
    [io:format("~p~n", [[try_it(fun() -> ets:select(T, B) end),
                         try_it(fun() -> ets:select_count(T, B) end),
                         try_it(fun() -> ets:select_delete(T, B) end),
                         ets:test_ms({1, 2, 3}, B)]]) || B <- Bad],
    io:format("~p~n", [ets:select_count(T, [{{'$1', '_', '_'}, [{'>', '$1', 4}], [true]}])]),
    io:format("~p~n", [ets:select_delete(T, [{{'$1', '_', '_'}, [{'>', '$1', 4}], [true]}])]),
    io:format("~p~n", [lists:sort(ets:match(T, {'$1', '_', '_'}))]),
    io:format("~p~n", [ets:match(T, {'$01', '_', '_'})]),
    done.
