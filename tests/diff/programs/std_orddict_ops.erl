%% Checks: OTP's orddict from source: store/append/update/update_counter/fetch/find/erase/merge/fold/filter/map/take.
-module(std_orddict_ops).
-export([main/0]).
main() ->
    D0 = orddict:from_list([{b, 2}, {a, 1}, {c, 3}]),
    D1 = orddict:store(d, 4, orddict:append(a, x, orddict:store(a, [1], D0))),
    io:format("~p~n", [D1]),
    io:format("~p~n", [orddict:update_counter(b, 10, D0)]),
    io:format("~p ~p~n", [orddict:find(c, D0), orddict:find(z, D0)]),
    io:format("~p~n", [orddict:merge(fun(_, X, Y) -> X + Y end, D0, [{a, 100}, {e, 5}])]),
    io:format("~p~n", [orddict:fold(fun(K, V, A) -> [{V, K} | A] end, [], D0)]),
    io:format("~p~n", [orddict:filter(fun(_, V) -> V > 1 end, D0)]),
    io:format("~p ~p~n", [orddict:take(a, D0), orddict:take(z, D0)]),
    R = try orddict:fetch(z, D0) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok.
