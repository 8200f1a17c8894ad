%% Checks: logger process metadata (set/update/get/unset) and primary filters add/remove, as OTP keeps them.
-module(world_logger_metadata).
-export([main/0]).
main() ->
    io:format("~p~n", [logger:get_process_metadata()]),
    ok = logger:set_process_metadata(#{request => 1}),
    ok = logger:update_process_metadata(#{user => bob}),
    io:format("~p~n", [logger:get_process_metadata()]),
    Child = spawn(fun() -> receive {From, go} -> From ! {self(), logger:get_process_metadata()} end end),
    Child ! {self(), go},
    receive {Child, M} -> io:format("~p~n", [M]) end,
    ok = logger:unset_process_metadata(),
    io:format("~p~n", [logger:get_process_metadata()]),
    F = {fun(E, _) -> E end, []},
    ok = logger:add_primary_filter(pass, F),
    io:format("~p~n", [logger:add_primary_filter(pass, F)]),
    io:format("~p~n", [[Id || {Id, _} <- maps:get(filters, logger:get_primary_config())]]),
    ok = logger:remove_primary_filter(pass),
    io:format("~p~n", [logger:remove_primary_filter(pass)]),
    ok.
