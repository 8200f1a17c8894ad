%% Checks: logger:allow/2 (what ?LOG_* expands to) under primary and module levels, compare_levels, and that logging calls return ok.
-module(world_logger_levels).
-export([main/0]).
-include_lib("kernel/include/logger.hrl").
main() ->
    ok = logger:set_primary_config(level, notice),
    io:format("~p~n", [[logger:allow(L, ?MODULE) || L <- [emergency, error, notice, info, debug]]]),
    ok = logger:set_module_level(?MODULE, debug),
    io:format("~p~n", [logger:allow(debug, ?MODULE)]),
    ok = logger:set_primary_config(level, none),
    io:format("~p ~p~n", [logger:allow(debug, ?MODULE), logger:allow(emergency, other)]),
    io:format("~p~n", [[logger:compare_levels(A, B) || {A, B} <- [{error, info}, {info, error}, {all, all}, {none, debug}]]]),
    R = try logger:allow(loud, ?MODULE) catch error:E -> E end,
    io:format("~p~n", [R]),
    ok = logger:unset_module_level(),
    io:format("~p~n", [[?LOG_ERROR("x ~p", [1]), ?LOG_INFO(#{a => 1}), logger:warning("w"), logger:log(notice, "~s", ["n"])]]),
    ok.
