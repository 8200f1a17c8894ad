%% Checks: keyfind, keymember, keystore, keyreplace, keydelete, keytake, keymap, zip, unzip, zip3, unzip3, enumerate-like zips, proplists style lists.
-module(lists_keys).
-export([main/0]).

main() ->
    L = [{a, 1}, {b, 2}, {c, 3}, {b, 4}],
    io:format("~p ~p~n", [lists:keyfind(b, 1, L), lists:keyfind(z, 1, L)]),
    io:format("~p~n", [lists:keyfind(3, 2, L)]),
    io:format("~p ~p~n", [lists:keymember(c, 1, L), lists:keymember(x, 1, L)]),
    io:format("~p~n", [lists:keystore(b, 1, L, {b, 20})]),
    io:format("~p~n", [lists:keystore(d, 1, L, {d, 5})]),
    io:format("~p~n", [lists:keyreplace(a, 1, L, {a, 100})]),
    io:format("~p~n", [lists:keyreplace(q, 1, L, {q, 0})]),
    io:format("~p~n", [lists:keydelete(b, 1, L)]),
    io:format("~p~n", [lists:keytake(c, 1, L)]),
    io:format("~p~n", [lists:keytake(q, 1, L)]),
    io:format("~p~n", [lists:keymap(fun(V) -> V * 10 end, 2, L)]),
    Z = lists:zip([1, 2, 3], [x, y, z]),
    io:format("~p~n", [Z]),
    io:format("~p~n", [lists:unzip(Z)]),
    io:format("~p~n", [lists:zip3([1, 2], [a, b], ["x", "y"])]),
    io:format("~p~n", [lists:unzip3([{1, a, p}, {2, b, q}])]),
    E = try lists:zip([1, 2], [a]) catch error:R -> R end,
    io:format("~p~n", [E]),
    io:format("~p~n", [lists:zip(lists:seq(1, 3), "abc")]),
    lists:keyfind(1.0, 2, L).
