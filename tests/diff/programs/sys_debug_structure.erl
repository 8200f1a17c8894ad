%% Checks: sys's debug structure as a behaviour of its own keeps it (gen_leader does): debug_options/1 with no option and with options sys ignores, handle_debug/4, get_debug/3 and print_log/1 with no debug facility on.
-module(sys_debug_structure).
-export([main/0]).

main() ->
    D0 = sys:debug_options([]),
    D1 = sys:debug_options([{unknown, 1}, whatever]),
    io:format("~p ~p~n", [D0, D1]),
    io:format("~p~n", [sys:handle_debug(D0, fun(_, _, _) -> ok end, state, {in, msg})]),
    io:format("~p~n", [sys:get_debug(log, D0, none)]),
    io:format("~p~n", [sys:print_log(D0)]),
    done.
