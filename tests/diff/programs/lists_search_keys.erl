%% Checks: OTP's lists: search, member, keyfind/keysearch/keytake/keyreplace/keystore/keymerge/ukeysort.
-module(lists_search_keys).
-export([main/0]).
main() ->
    L = [{b, 2}, {a, 1}, {c, 3}, {a, 4}],
    io:format("~p ~p~n", [lists:search(fun({_, V}) -> V > 2 end, L), lists:search(fun(_) -> false end, L)]),
    io:format("~p ~p~n", [lists:keysearch(a, 1, L), lists:keytake(c, 1, L)]),
    io:format("~p~n", [lists:keyreplace(a, 1, L, {a, 9})]),
    io:format("~p~n", [lists:keystore(z, 1, L, {z, 0})]),
    io:format("~p~n", [lists:ukeysort(1, L)]),
    io:format("~p~n", [lists:keymerge(1, [{a, 1}, {c, 3}], [{b, 2}])]),
    io:format("~p~n", [lists:keymap(fun(V) -> V * 10 end, 2, L)]),
    ok.
