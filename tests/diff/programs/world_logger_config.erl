%% Checks: the logger model's configuration API against OTP's: primary config set/update, handler add/remove/config, get_handler_ids, module levels.
-module(world_logger_config).
-export([main/0]).
main() ->
    ok = logger:set_primary_config(level, warning),
    io:format("~p~n", [logger:get_primary_config()]),
    io:format("~p~n", [logger:set_primary_config(level, loud)]),
    ok = logger:update_primary_config(#{metadata => #{node => here}}),
    io:format("~p~n", [maps:get(metadata, logger:get_primary_config())]),
    io:format("~p~n", [logger:get_handler_ids()]),
    ok = logger:add_handler(mine, logger_std_h, #{level => error, config => #{type => standard_error}}),
    {ok, H} = logger:get_handler_config(mine),
    io:format("~p ~p~n", [maps:get(level, H), maps:get(module, H)]),
    io:format("~p~n", [logger:add_handler(mine, logger_std_h, #{})]),
    ok = logger:set_handler_config(mine, level, info),
    {ok, H2} = logger:get_handler_config(mine),
    io:format("~p~n", [maps:get(level, H2)]),
    ok = logger:remove_handler(mine),
    io:format("~p ~p~n", [logger:remove_handler(mine), logger:get_handler_config(mine)]),
    ok = logger:set_module_level([b_mod, a_mod], debug),
    io:format("~p~n", [logger:get_module_level()]),
    ok = logger:unset_module_level(a_mod),
    io:format("~p~n", [logger:get_module_level()]),
    ok = logger:unset_module_level(),
    ok.
