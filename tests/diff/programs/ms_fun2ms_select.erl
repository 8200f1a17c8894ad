%% Checks: ets:fun2ms/1 (ms_transform.hrl) in ets:select/2, select_count/2, select_delete/2 and ets:test_ms/2: head variables, guards with ; and andalso, records with '_' defaults, object(), an outer variable as {const, V}, element/2 of a record field; and dbg:fun2ms/1 through erlang:match_spec_test/3.
-module(ms_fun2ms_select).
-include_lib("stdlib/include/ms_transform.hrl").
-export([main/0]).

-record(emp, {id, name, dept = none, salary = 0}).

main() ->
    T = ets:new(emps, [set, {keypos, #emp.id}]),
    ets:insert(T, [#emp{id = 1, name = ann, dept = dev, salary = 120},
                   #emp{id = 2, name = bob, dept = ops, salary = 90},
                   #emp{id = 3, name = cid, dept = dev, salary = 70},
                   #emp{id = 4, name = dee, salary = 150}]),
    Min = 100,
    Rich = ets:fun2ms(fun(#emp{name = N, salary = S}) when S >= Min -> {N, S} end),
    io:format("~p~n", [Rich]),
    io:format("~p~n", [lists:sort(ets:select(T, Rich))]),
    Dev = ets:fun2ms(fun(#emp{dept = dev, _ = '_'} = E) -> E#emp.name end),
    io:format("~p~n", [Dev]),
    io:format("~p~n", [lists:sort(ets:select(T, Dev))]),
    Either = ets:fun2ms(fun(#emp{id = I, dept = D}) when D =:= ops; I > 3 -> I end),
    io:format("~p~n", [lists:sort(ets:select(T, Either))]),
    Whole = ets:fun2ms(fun(E = #emp{salary = S}) when S < 100 andalso S > 0 -> object() end),
    io:format("~p~n", [lists:sort(ets:select(T, Whole))]),
    io:format("~p~n", [ets:select_count(T, ets:fun2ms(fun(#emp{dept = none}) -> true end))]),
    Raise = ets:fun2ms(fun(#emp{salary = S} = E) when S < 100 -> E#emp{salary = S + 10} end),
    io:format("~p~n", [lists:sort(ets:select(T, Raise))]),
    io:format("~p~n", [ets:test_ms(#emp{id = 9, name = zed, salary = 5}, Raise)]),
    io:format("~p~n", [ets:select_delete(T, ets:fun2ms(fun(#emp{dept = dev}) -> true end))]),
    io:format("~p~n", [lists:sort(ets:tab2list(T))]),
    Trace = dbg:fun2ms(fun([A, B]) when A > B -> message({A, B}), return_trace() end),
    io:format("~p~n", [Trace]),
    io:format("~p~n", [erlang:match_spec_test([5, 2], Trace, trace)]),
    io:format("~p~n", [erlang:match_spec_test([1, 2], Trace, trace)]),
    Pairs = ets:fun2ms(fun({K, V}) when is_integer(V), V rem 2 =:= 0 -> {V, K} end),
    ets:match_spec_run([{a, 2}, {b, 3}, {c, 4}], ets:match_spec_compile(Pairs)).
