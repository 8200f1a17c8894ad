%% Checks: error_logger's API is accepted and returns ok (it is a front end of logger).
-module(world_error_logger).
-export([main/0]).
main() ->
    io:format("~p~n", [[error_logger:error_msg("e ~p~n", [1]), error_logger:warning_msg("w"),
                        error_logger:info_msg("i"), error_logger:error_report([{a, 1}]),
                        error_logger:info_report(progress, [x]), error_logger:warning_report("w")]]),
    io:format("~p~n", [error_logger:warning_map()]),
    ok.
