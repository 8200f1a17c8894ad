%% Checks: error_logger is not registered at boot; start/0 starts it (a gen_event) and is ok when it runs; the logger handler is added apart; a supervised handler of the program gets error_logger's events; stop/0.
-module(world_error_logger_start).
-export([main/0]).
-export([init/1, handle_event/2, handle_call/2, handle_info/2, terminate/2]).

init(Collector) -> {ok, Collector}.
handle_event(Event, Collector) -> Collector ! {event, Event}, {ok, Collector}.
handle_call(Request, Collector) -> {ok, {called, Request}, Collector}.
handle_info(_Info, Collector) -> {ok, Collector}.
terminate(Arg, _Collector) -> {terminated, Arg}.

main() ->
    ok = logger:remove_handler(default),
    ok = logger:set_primary_config(level, info),
    io:format("at boot: ~p~n", [whereis(error_logger)]),
    io:format("handlers at boot: ~p~n", [error_logger:which_report_handlers()]),
    io:format("start: ~p~n", [error_logger:start()]),
    Pid = whereis(error_logger),
    io:format("registered: ~p~n", [is_pid(Pid)]),
    io:format("start again: ~p, same: ~p~n", [error_logger:start(), whereis(error_logger) =:= Pid]),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(error_logger)]),
    io:format("logger handler: ~p~n", [lists:member(error_logger, logger:get_handler_ids())]),
    %% Without the logger handler nothing reaches the gen_event.
    ok = error_logger:error_msg("before ~p~n", [0]),
    ok = gen_event:add_sup_handler(error_logger, ?MODULE, self()),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(error_logger)]),
    io:format("add logger handler: ~p~n",
              [logger:add_handler(error_logger, error_logger,
                                  #{level => info, filter_default => log})]),
    io:format("again: ~p~n",
              [logger:add_handler(error_logger, error_logger,
                                  #{level => info, filter_default => log})]),
    ok = error_logger:error_msg("after ~p~n", [1]),
    show(),
    ok = error_logger:warning_report(disk, [{free, 0}]),
    show(),
    io:format("call: ~p~n", [gen_event:call(error_logger, ?MODULE, ping)]),
    io:format("delete: ~p~n", [gen_event:delete_handler(error_logger, ?MODULE, bye)]),
    io:format("which_handlers: ~p~n", [gen_event:which_handlers(error_logger)]),
    io:format("remove logger handler: ~p~n", [logger:remove_handler(error_logger)]),
    io:format("stopped by it: ~p~n", [whereis(error_logger)]),
    io:format("start: ~p~n", [error_logger:start()]),
    io:format("stop: ~p ~p~n", [error_logger:stop(), whereis(error_logger)]),
    io:format("stop again: ~p~n", [error_logger:stop()]),
    ok.

show() ->
    receive
        {event, {Tag, GL, {From, FormatOrType, ArgsOrReport}}} ->
            io:format("~p ~p ~p ~p ~p~n",
                      [Tag, is_pid(GL), From =:= self(), FormatOrType, ArgsOrReport])
    end.
