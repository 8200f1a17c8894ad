%% Checks: OTP's dict from source: store/append/append_list/update/update_counter/fetch/find/erase/merge/fold/map/filter/take.
-module(std_dict_ops).
-export([main/0]).
main() ->
    D = dict:from_list([{a, 1}, {b, 2}]),
    D1 = dict:append_list(l, [x, y], dict:append(l, w, D)),
    io:format("~p~n", [lists:sort(dict:to_list(D1))]),
    io:format("~p~n", [lists:sort(dict:to_list(dict:update_counter(a, 5, D)))]),
    io:format("~p ~p~n", [dict:find(b, D), dict:is_key(c, D)]),
    io:format("~p~n", [lists:sort(dict:to_list(dict:merge(fun(_, X, Y) -> X * Y end, D, dict:from_list([{a, 7}]))))]),
    io:format("~p~n", [dict:fold(fun(_, V, A) -> V + A end, 0, D)]),
    io:format("~p~n", [lists:sort(dict:to_list(dict:map(fun(_, V) -> -V end, D)))]),
    io:format("~p~n", [dict:size(dict:filter(fun(K, _) -> K =:= a end, D))]),
    {V, D2} = dict:take(a, D),
    io:format("~p ~p ~p~n", [V, dict:fetch_keys(D2), dict:take(z, D)]),
    R = try dict:update(z, fun(X) -> X end, D) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
