%% Checks: error_logger:add_report_handler/1,2 (starting error_logger when it is not running), which_handlers, the events of error_msg/warning_msg/info_msg/*_report as the handler gets them, the logger levels they pass, delete_report_handler/1.
-module(world_error_logger_handlers).
-export([main/0]).
-export([init/1, handle_event/2, handle_call/2, handle_info/2, terminate/2]).

init(Collector) when is_pid(Collector) -> {ok, Collector};
init([]) -> {ok, nobody}.
handle_event(_Event, nobody) -> {ok, nobody};
handle_event(Event, Collector) -> Collector ! {event, Event}, {ok, Collector}.
handle_call(_Request, State) -> {ok, ok, State}.
handle_info(_Info, State) -> {ok, State}.
terminate(_Arg, nobody) -> quiet;
terminate(Arg, _Collector) -> {done, Arg}.

main() ->
    ok = logger:remove_handler(default),
    ok = logger:set_primary_config(level, info),
    io:format("before: ~p ~p~n", [whereis(error_logger), error_logger:which_report_handlers()]),
    io:format("delete when not running: ~p~n", [error_logger:delete_report_handler(?MODULE)]),
    io:format("add: ~p~n", [error_logger:add_report_handler(?MODULE, self())]),
    io:format("running: ~p~n", [is_pid(whereis(error_logger))]),
    io:format("which: ~p ~p~n", [gen_event:which_handlers(error_logger),
                                 error_logger:which_report_handlers()]),
    io:format("logger handler: ~p~n", [lists:member(error_logger, logger:get_handler_ids())]),
    ok = error_logger:error_msg("e ~p~n", [1]),
    show(),
    ok = error_logger:error_msg("plain"),
    show(),
    ok = error_logger:format("f ~w", [x]),
    show(),
    ok = error_logger:warning_msg("w ~p", [2]),
    show(),
    ok = error_logger:info_msg("i ~p", [3]),
    show(),
    ok = error_logger:error_report([{a, 1}]),
    show(),
    ok = error_logger:error_report(my_type, "text"),
    show(),
    ok = error_logger:warning_report(#{b => 2}),
    show(),
    ok = error_logger:info_report(progress, [{c, 3}]),
    show(),
    ok = error_logger:info_report(x),
    show(),
    %% A level below the primary level does not reach the handler.
    ok = logger:set_primary_config(level, error),
    ok = error_logger:info_msg("dropped"),
    ok = error_logger:error_msg("kept"),
    show(),
    ok = logger:set_primary_config(level, info),
    %% Nor does a plain logger event without error_logger's tag.
    ok = logger:error("plain logger ~p", [5]),
    ok = error_logger:error_msg("next"),
    show(),
    io:format("add other: ~p~n", [error_logger:add_report_handler(?MODULE)]),
    io:format("delete: ~p~n", [error_logger:delete_report_handler(?MODULE)]),
    io:format("which: ~p~n", [gen_event:which_handlers(error_logger)]),
    io:format("delete: ~p~n", [error_logger:delete_report_handler(?MODULE)]),
    %% The last one gone, the logger handler goes, and with it the process.
    io:format("which: ~p ~p~n", [error_logger:which_report_handlers(),
                                 lists:member(error_logger, logger:get_handler_ids())]),
    io:format("running: ~p~n", [whereis(error_logger)]),
    io:format("delete missing: ~p~n", [error_logger:delete_report_handler(nobody_h)]),
    io:format("start: ~p~n", [error_logger:start()]),
    io:format("delete missing: ~p~n", [error_logger:delete_report_handler(nobody_h)]),
    io:format("tty: ~p ~p~n", [error_logger:tty(false), error_logger:tty(true)]),
    ok.

show() ->
    receive
        {event, {Tag, GL, {From, FormatOrType, ArgsOrReport}}} ->
            io:format("~p ~p ~p ~p ~p~n",
                      [Tag, is_pid(GL), From =:= self(), FormatOrType, ArgsOrReport])
    end.
