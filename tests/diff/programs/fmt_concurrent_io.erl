%% Checks: io:format from spawned processes (inherited group leader) in an order fixed by token passing; each line written whole.
-module(fmt_concurrent_io).
-export([main/0]).

speaker(Id, Next) ->
    receive
        {token, 0, Main} -> Main ! done, speaker(Id, Next);
        {token, N, Main} ->
            io:format("speaker ~p says ~p~n", [Id, N]),
            Next() ! {token, N - 1, Main},
            speaker(Id, Next)
    end.

main() ->
    Main = self(),
    register(rw_spk_a, spawn(fun() -> speaker(a, fun() -> whereis(rw_spk_b) end) end)),
    register(rw_spk_b, spawn(fun() -> speaker(b, fun() -> whereis(rw_spk_c) end) end)),
    register(rw_spk_c, spawn(fun() -> speaker(c, fun() -> whereis(rw_spk_a) end) end)),
    rw_spk_a ! {token, 7, Main},
    receive done -> ok end,
    Pids = [spawn(fun() -> io:format("~s~n", [lists:duplicate(30, $=)]), Main ! printed end) || _ <- [1, 2, 3]],
    [receive printed -> ok end || _ <- Pids],
    [exit(whereis(N), kill) || N <- [rw_spk_a, rw_spk_b, rw_spk_c]],
    finished.
