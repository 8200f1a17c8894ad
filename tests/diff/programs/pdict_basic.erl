%% Checks: the process dictionary: put returns old value, get/1, get/0 (sorted), get_keys, erase/1, erase/0, per-process isolation.
-module(pdict_basic).
-export([main/0]).

main() ->
    io:format("~p~n", [put(a, 1)]),
    io:format("~p~n", [put(a, 2)]),
    io:format("~p~n", [get(a)]),
    io:format("~p~n", [get(missing)]),
    put(b, 20), put({tuple, key}, "v"),
    io:format("~p~n", [lists:sort(get())]),
    io:format("~p~n", [lists:sort(get_keys())]),
    io:format("~p~n", [get_keys(20)]),
    io:format("~p~n", [erase(a)]),
    io:format("~p~n", [erase(a)]),
    Parent = self(),
    spawn(fun() -> Parent ! {child_sees, get(b), put(b, child)} end),
    receive {child_sees, V, Old} -> io:format("child: ~p ~p~n", [V, Old]) end,
    io:format("parent still: ~p~n", [get(b)]),
    Erased = lists:sort(erase()),
    io:format("~p~n", [Erased]),
    io:format("~p~n", [get()]),
    Count = lists:foldl(fun(X, _) -> put(counter, X) end, undefined, [1, 2, 3]),
    {Count, get(counter)}.
