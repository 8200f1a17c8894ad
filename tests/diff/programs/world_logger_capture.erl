%% Checks: logging calls in every form (format+args, report, fun, metadata) return ok whatever the level; levels above the primary are dropped silently.
-module(world_logger_capture).
-export([main/0]).
-include_lib("kernel/include/logger.hrl").
main() ->
    ok = logger:set_primary_config(level, none),
    R = [logger:log(error, "plain"), logger:log(error, "~p", [x]), logger:log(error, #{r => 1}),
         logger:log(error, fun(A) -> {"~p", [A]} end, arg), logger:log(error, "~p", [y], #{domain => [t]}),
         logger:emergency("e"), logger:alert("a"), logger:critical("c"), logger:notice("n"), logger:debug("d"),
         ?LOG_EMERGENCY("m"), ?LOG(info, "x ~p", [1]), ?LOG_WARNING(#{w => 1}, #{meta => 1})],
    io:format("~p~n", [R]),
    io:format("~p~n", [logger:get_process_metadata()]),
    ok.
