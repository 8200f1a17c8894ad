%% racewit prelude: logger, modelled. Every API call is accepted; the
%% configuration (primary, handlers, module levels, process metadata) is
%% kept as OTP keeps it and read back as OTP shows it; an event that passes
%% the primary and module level checks and the primary filters is captured
%% (racewit_world:log/3): `racewit run` prints it, a witness shows it as a
%% step. OTP's writing handlers (logger_std_h, logger_disk_log_h), which
%% racewit does not run, are configured but never run: nothing is written.
%% A handler whose module the run has (error_logger's, the program's own)
%% runs as logger runs it: adding_handler/1 and removing_handler/1 when it
%% is added and removed, log/2 in the logging process for each event that
%% passes its level and filters; one whose log/2 crashes is removed.
%% The primary level starts at `notice`, as on a node started without
%% `-kernel logger_level`.
-module(logger).
-compile({no_auto_import, [error/1, error/2, error/3]}).
-export([emergency/1, emergency/2, emergency/3,
         alert/1, alert/2, alert/3,
         critical/1, critical/2, critical/3,
         error/1, error/2, error/3,
         warning/1, warning/2, warning/3,
         notice/1, notice/2, notice/3,
         info/1, info/2, info/3,
         debug/1, debug/2, debug/3,
         log/2, log/3, log/4,
         allow/2, macro_log/3, macro_log/4, macro_log/5,
         add_handler/3, remove_handler/1, add_handlers/1,
         add_primary_filter/2, remove_primary_filter/1,
         add_handler_filter/3, remove_handler_filter/2,
         set_primary_config/1, set_primary_config/2,
         set_handler_config/2, set_handler_config/3,
         update_primary_config/1, update_handler_config/2, update_handler_config/3,
         update_formatter_config/2, update_formatter_config/3,
         get_primary_config/0, get_handler_config/0, get_handler_config/1,
         get_handler_ids/0, get_config/0, get_proxy_config/0, update_proxy_config/1,
         set_module_level/2, unset_module_level/0, unset_module_level/1,
         get_module_level/0, get_module_level/1,
         set_application_level/2, unset_application_level/1,
         compare_levels/2,
         set_process_metadata/1, update_process_metadata/1,
         unset_process_metadata/0, get_process_metadata/0,
         format_report/1, format_otp_report/1, timestamp/0,
         reconfigure/0, i/0, i/1]).

-define(LEVELS, [emergency, alert, critical, error, warning, notice, info, debug]).
-define(METAKEY, '$logger_metadata$').

%%% Logging

emergency(A) -> log(emergency, A).
emergency(A, B) -> log(emergency, A, B).
emergency(A, B, C) -> log(emergency, A, B, C).
alert(A) -> log(alert, A).
alert(A, B) -> log(alert, A, B).
alert(A, B, C) -> log(alert, A, B, C).
critical(A) -> log(critical, A).
critical(A, B) -> log(critical, A, B).
critical(A, B, C) -> log(critical, A, B, C).
error(A) -> log(error, A).
error(A, B) -> log(error, A, B).
error(A, B, C) -> log(error, A, B, C).
warning(A) -> log(warning, A).
warning(A, B) -> log(warning, A, B).
warning(A, B, C) -> log(warning, A, B, C).
notice(A) -> log(notice, A).
notice(A, B) -> log(notice, A, B).
notice(A, B, C) -> log(notice, A, B, C).
info(A) -> log(info, A).
info(A, B) -> log(info, A, B).
info(A, B, C) -> log(info, A, B, C).
debug(A) -> log(debug, A).
debug(A, B) -> log(debug, A, B).
debug(A, B, C) -> log(debug, A, B, C).

log(Level, StringOrReport) ->
    do_log(Level, msg(StringOrReport), #{}).

log(Level, StringOrReport, Meta) when is_map(Meta), not is_function(StringOrReport) ->
    do_log(Level, msg(StringOrReport), Meta);
log(Level, FunOrFormat, Args) ->
    do_log(Level, {FunOrFormat, Args}, #{}).

log(Level, FunOrFormat, Args, Meta) ->
    do_log(Level, {FunOrFormat, Args}, Meta).

msg(Report) when is_map(Report) -> {report, Report};
msg([{_, _} | _] = Report) -> {report, Report};
msg(String) -> {string, String}.

%% What ?LOG_* expands to: `case logger:allow(L, ?MODULE) of true ->
%% logger:macro_log(Location, L, ...); false -> ok end`.
allow(Level, Module) ->
    case lists:member(Level, ?LEVELS) of
        true -> le(Level, effective_level(Module));
        false -> erlang:error(function_clause, [Level, Module])
    end.

macro_log(Location, Level, StringOrReport) ->
    do_log(Level, msg(StringOrReport), Location).

macro_log(Location, Level, StringOrReport, Meta)
  when is_map(Meta), not is_function(StringOrReport) ->
    do_log(Level, msg(StringOrReport), maps:merge(Location, Meta));
macro_log(Location, Level, FunOrFormat, Args) ->
    do_log(Level, {FunOrFormat, Args}, Location).

macro_log(Location, Level, FunOrFormat, Args, Meta) ->
    do_log(Level, {FunOrFormat, Args}, maps:merge(Location, Meta)).

do_log(Level, Msg, Meta0) ->
    check_level(Level),
    Module = case Meta0 of
                 #{mfa := {M, _, _}} -> M;
                 _ -> undefined
             end,
    case le(Level, effective_level(Module)) of
        false -> ok;
        true ->
            Meta = add_default_metadata(
                     maps:merge(maps:get(metadata, primary(), #{}),
                                maps:merge(get_process_metadata_or_empty(), Meta0))),
            case apply_fun(Msg) of
                skip -> ok;
                Msg1 ->
                    Event = #{level => Level, msg => Msg1, meta => Meta},
                    #{filters := Filters, filter_default := Default} = primary(),
                    case run_filters(Filters, Event, Default) of
                        stop -> ok;
                        Event1 -> capture(Event1), run_handlers(Event1)
                    end
            end
    end.

add_default_metadata(Meta) ->
    maps:merge(#{pid => self(), gl => group_leader()}, Meta).

%% Each handler the run has code for, in the order they were added.
run_handlers(#{level := Level} = Event) ->
    lists:foreach(
      fun(#{id := Id, module := Module} = H) ->
              case runs(Module, log, 2) andalso le(Level, maps:get(level, H, all)) of
                  false -> ok;
                  true ->
                      Filters = maps:get(filters, H, []),
                      Default = maps:get(filter_default, H, log),
                      case run_filters(Filters, Event, Default) of
                          stop -> ok;
                          Event1 ->
                              try Module:log(Event1, H)
                              catch _:_ -> _ = remove_handler(Id)
                              end
                      end
              end
      end, handlers()).

%% Does the run have this callback? OTP's writing handlers it has not.
runs(Module, Function, Arity) ->
    erlang:function_exported(Module, Function, Arity).

apply_fun({Fun, Args}) when is_function(Fun, 1) ->
    case Fun(Args) of
        {Format, FArgs} when is_list(FArgs) -> {Format, FArgs};
        {Report, _Meta} when is_map(Report) -> {report, Report};
        ignore -> skip;
        Report when is_map(Report) -> {report, Report};
        Other -> {string, Other}
    end;
apply_fun(Msg) -> Msg.

run_filters([], Event, Default) ->
    case Default of
        log -> Event;
        stop -> stop
    end;
run_filters([{_Id, {Fun, Arg}} | Rest], Event, Default) ->
    case catch Fun(Event, Arg) of
        stop -> stop;
        ignore -> run_filters(Rest, Event, Default);
        #{level := _, msg := _, meta := _} = Event1 -> run_filters(Rest, Event1, Default);
        _ -> run_filters(Rest, Event, Default)
    end.

capture(#{level := Level, msg := Msg, meta := Meta}) ->
    Text = try format_msg(Msg, Meta)
           catch _:_ -> io_lib:format("~p", [Msg])
           end,
    Location = case Meta of
                   #{mfa := {M, F, A}, line := Line} ->
                       io_lib:format("~w:~w/~w line ~w", [M, F, A, Line]);
                   #{mfa := {M, F, A}} ->
                       io_lib:format("~w:~w/~w", [M, F, A]);
                   _ -> undefined
               end,
    racewit_world:log(Level, Text, Location).

format_msg({string, S}, _) -> S;
format_msg({report, R}, #{report_cb := Cb}) when is_function(Cb, 1) ->
    {Format, Args} = Cb(R),
    io_lib:format(Format, Args);
format_msg({report, R}, #{report_cb := Cb}) when is_function(Cb, 2) ->
    Cb(R, #{depth => unlimited, chars_limit => unlimited, single_line => false});
format_msg({report, R}, _) -> format_report_text(R);
format_msg({Format, Args}, _) -> io_lib:format(Format, Args).

format_report_text(R) when is_map(R) ->
    format_report_text(lists:sort(maps:to_list(R)));
format_report_text([{_, _} | _] = L) ->
    lists:join("\n", [io_lib:format("    ~tp: ~tp", [K, V]) || {K, V} <- L]);
format_report_text(Other) -> io_lib:format("~tp", [Other]).

format_report(Report) ->
    {"~ts", [format_report_text(Report)]}.

format_otp_report(#{label := _, report := Report}) ->
    format_report(Report);
format_otp_report(Report) ->
    format_report(Report).

timestamp() ->
    os:system_time(microsecond).

%%% Levels

check_level(L) ->
    case lists:member(L, ?LEVELS) of
        true -> ok;
        false -> erlang:error(badarg, [L])
    end.

level_int(none) -> -1;
level_int(emergency) -> 0;
level_int(alert) -> 1;
level_int(critical) -> 2;
level_int(error) -> 3;
level_int(warning) -> 4;
level_int(notice) -> 5;
level_int(info) -> 6;
level_int(debug) -> 7;
level_int(all) -> 8.

le(Level, Configured) -> level_int(Level) =< level_int(Configured).

effective_level(Module) ->
    case lists:keyfind(Module, 1, module_levels()) of
        {_, L} -> L;
        false -> maps:get(level, primary())
    end.

compare_levels(A, B) ->
    case {lists:member(A, [all, none | ?LEVELS]), lists:member(B, [all, none | ?LEVELS])} of
        {true, true} ->
            IA = level_int(A), IB = level_int(B),
            if IA < IB -> gt; IA > IB -> lt; true -> eq end;
        _ -> erlang:error(badarg, [A, B])
    end.

%%% Configuration

primary() ->
    racewit_world:get({logger, primary},
                      #{level => notice, filter_default => log,
                        filters => [], metadata => #{}}).

set_primary(Config) -> racewit_world:put({logger, primary}, Config).

handlers() ->
    racewit_world:get({logger, handlers}, [default_handler()]).

set_handlers(Hs) -> racewit_world:put({logger, handlers}, Hs).

module_levels() -> racewit_world:get({logger, module_levels}, []).

default_handler() ->
    #{id => default, module => logger_std_h, level => all,
      filter_default => stop,
      filters => [{remote_gl, {fun logger_filters:remote_gl/2, stop}},
                  {domain, {fun logger_filters:domain/2, {log, super, [otp, sasl]}}},
                  {no_domain, {fun logger_filters:domain/2, {log, undefined, []}}}],
      formatter => {logger_formatter, #{legacy_header => true, single_line => false}},
      config => #{burst_limit_enable => true, burst_limit_max_count => 500,
                  burst_limit_window_time => 1000, drop_mode_qlen => 200,
                  filesync_repeat_interval => no_repeat, flush_qlen => 1000,
                  overload_kill_enable => false, overload_kill_mem_size => 3000000,
                  overload_kill_qlen => 20000, overload_kill_restart_after => 5000,
                  sync_mode_qlen => 10, type => standard_io}}.

proxy_config() ->
    racewit_world:get({logger, proxy},
                      #{burst_limit_enable => false, burst_limit_max_count => 500,
                        burst_limit_window_time => 1000, drop_mode_qlen => 1000,
                        flush_qlen => 5000, overload_kill_enable => false,
                        overload_kill_mem_size => 3000000, overload_kill_qlen => 20000,
                        overload_kill_restart_after => 5000, sync_mode_qlen => 500}).

get_proxy_config() -> proxy_config().

update_proxy_config(Config) when is_map(Config) ->
    racewit_world:put({logger, proxy}, maps:merge(proxy_config(), Config)), ok;
update_proxy_config(Config) -> {error, {invalid_config, Config}}.

valid_primary_key(level) -> true;
valid_primary_key(filter_default) -> true;
valid_primary_key(filters) -> true;
valid_primary_key(metadata) -> true;
valid_primary_key(_) -> false.

valid_value(level, L) -> lists:member(L, [all, none | ?LEVELS]);
valid_value(filter_default, D) -> D =:= log orelse D =:= stop;
valid_value(filters, F) -> is_list(F);
valid_value(metadata, M) -> is_map(M);
valid_value(_, _) -> true.

set_primary_config(Key, Value) ->
    case valid_primary_key(Key) of
        false -> {error, {invalid_config, logger, {Key, Value}}};
        true ->
            case valid_value(Key, Value) of
                true -> set_primary(maps:put(Key, Value, primary())), ok;
                false when Key =:= level -> {error, {invalid_level, Value}};
                false -> {error, {invalid_config, logger, {Key, Value}}}
            end
    end.

set_primary_config(Config) when is_map(Config) ->
    Full = maps:merge(#{level => info, filter_default => log, filters => [],
                        metadata => #{}}, Config),
    case [K || K <- maps:keys(Full), not valid_primary_key(K)] of
        [] -> set_primary(Full), ok;
        [K | _] -> {error, {invalid_config, logger, {K, maps:get(K, Full)}}}
    end;
set_primary_config(Config) -> {error, {invalid_config, logger, Config}}.

update_primary_config(Config) when is_map(Config) ->
    set_primary(maps:merge(primary(), Config)), ok;
update_primary_config(Config) -> {error, {invalid_config, logger, Config}}.

get_primary_config() -> primary().

add_handler(Id, Module, Config) when is_atom(Id), is_atom(Module), is_map(Config) ->
    Hs = handlers(),
    case lists:any(fun(#{id := I}) -> I =:= Id end, Hs) of
        true -> {error, {already_exist, Id}};
        false ->
            Default = #{level => all, filter_default => log, filters => [],
                        formatter => {logger_formatter, #{}}, config => #{}},
            H0 = maps:merge(Default, Config#{id => Id, module => Module}),
            case callback(Module, adding_handler, H0, {ok, H0}) of
                {ok, H} -> set_handlers(handlers() ++ [H]), ok;
                {error, _} = Error -> Error;
                Other -> {error, {invalid_handler, {callback_return, Module, Other}}}
            end
    end;
add_handler(Id, Module, Config) -> {error, {invalid_handler, {Id, Module, Config}}}.

add_handlers(Handlers) when is_list(Handlers) ->
    lists:foreach(fun({handler, Id, Module, Config}) -> add_handler(Id, Module, Config);
                     (_) -> ok end, Handlers),
    ok;
add_handlers(_) -> ok.

remove_handler(Id) ->
    Hs = handlers(),
    case [H || #{id := I} = H <- Hs, I =/= Id] of
        Hs -> {error, {not_found, Id}};
        Rest ->
            set_handlers(Rest),
            [#{module := Module} = Removed] = [H || #{id := I} = H <- Hs, I =:= Id],
            _ = callback(Module, removing_handler, Removed, ok),
            ok
    end.

%% A handler module's optional callback, when the run has it.
callback(Module, Function, Config, Absent) ->
    case runs(Module, Function, 1) of
        true -> Module:Function(Config);
        false -> Absent
    end.

with_handler(Id, Fun) ->
    Hs = handlers(),
    case lists:any(fun(#{id := I}) -> I =:= Id end, Hs) of
        false -> {error, {not_found, Id}};
        true ->
            set_handlers([case H of #{id := Id} -> Fun(H); _ -> H end || H <- Hs]),
            ok
    end.

set_handler_config(Id, Config) when is_map(Config) ->
    with_handler(Id, fun(#{module := M}) -> Config#{id => Id, module => M} end);
set_handler_config(Id, Config) -> {error, {invalid_config, Id, Config}}.

set_handler_config(Id, Key, Value) ->
    with_handler(Id, fun(H) -> maps:put(Key, Value, H) end).

update_handler_config(Id, Config) when is_map(Config) ->
    with_handler(Id, fun(H) -> maps:merge(H, maps:without([id, module], Config)) end);
update_handler_config(Id, Config) -> {error, {invalid_config, Id, Config}}.

update_handler_config(Id, config, Value) when is_map(Value) ->
    with_handler(Id, fun(H) -> H#{config => maps:merge(maps:get(config, H, #{}), Value)} end);
update_handler_config(Id, Key, Value) ->
    set_handler_config(Id, Key, Value).

update_formatter_config(Id, Config) when is_map(Config) ->
    with_handler(Id, fun(H) ->
                             {M, C} = maps:get(formatter, H, {logger_formatter, #{}}),
                             H#{formatter => {M, maps:merge(C, Config)}}
                     end).

update_formatter_config(Id, Key, Value) ->
    update_formatter_config(Id, #{Key => Value}).

get_handler_config() -> handlers().

get_handler_config(Id) ->
    case [H || #{id := I} = H <- handlers(), I =:= Id] of
        [H] -> {ok, H};
        [] -> {error, {not_found, Id}}
    end.

get_handler_ids() -> [Id || #{id := Id} <- handlers()].

get_config() ->
    #{primary => primary(), handlers => handlers(),
      proxy => proxy_config(), module_levels => lists:sort(module_levels())}.

add_primary_filter(Id, {Fun, _Arg} = Filter) when is_function(Fun, 2) ->
    P = #{filters := Fs} = primary(),
    case lists:keymember(Id, 1, Fs) of
        true -> {error, {already_exist, Id}};
        false -> set_primary(P#{filters => Fs ++ [{Id, Filter}]}), ok
    end;
add_primary_filter(_Id, Filter) -> {error, {invalid_filter, Filter}}.

remove_primary_filter(Id) ->
    P = #{filters := Fs} = primary(),
    case lists:keymember(Id, 1, Fs) of
        false -> {error, {not_found, Id}};
        true -> set_primary(P#{filters => lists:keydelete(Id, 1, Fs)}), ok
    end.

add_handler_filter(HId, Id, {Fun, _Arg} = Filter) when is_function(Fun, 2) ->
    with_handler(HId, fun(H) -> H#{filters => maps:get(filters, H, []) ++ [{Id, Filter}]} end);
add_handler_filter(_HId, _Id, Filter) -> {error, {invalid_filter, Filter}}.

remove_handler_filter(HId, Id) ->
    with_handler(HId, fun(H) -> H#{filters => lists:keydelete(Id, 1, maps:get(filters, H, []))} end).

set_module_level(Module, Level) when is_atom(Module) ->
    set_module_level([Module], Level);
set_module_level(Modules, Level) when is_list(Modules) ->
    case lists:member(Level, [all, none | ?LEVELS]) of
        false -> {error, {invalid_level, Level}};
        true ->
            Ls = lists:foldl(fun(M, Acc) -> lists:keystore(M, 1, Acc, {M, Level}) end,
                             module_levels(), Modules),
            racewit_world:put({logger, module_levels}, Ls),
            ok
    end.

unset_module_level() ->
    racewit_world:put({logger, module_levels}, []), ok.

unset_module_level(Module) when is_atom(Module) -> unset_module_level([Module]);
unset_module_level(Modules) when is_list(Modules) ->
    Ls = [E || {M, _} = E <- module_levels(), not lists:member(M, Modules)],
    racewit_world:put({logger, module_levels}, Ls),
    ok.

get_module_level() -> lists:sort(module_levels()).

get_module_level(Module) when is_atom(Module) -> get_module_level([Module]);
get_module_level(Modules) when is_list(Modules) ->
    [E || {M, _} = E <- get_module_level(), lists:member(M, Modules)].

set_application_level(App, Level) ->
    case application:get_key(App, modules) of
        {ok, Modules} -> set_module_level(Modules, Level);
        undefined -> {error, {not_loaded, App}}
    end.

unset_application_level(App) ->
    case application:get_key(App, modules) of
        {ok, Modules} -> unset_module_level(Modules);
        undefined -> {error, {not_loaded, App}}
    end.

%%% Process metadata (in the process dictionary, as OTP keeps it)

set_process_metadata(Meta) when is_map(Meta) -> put(?METAKEY, Meta), ok;
set_process_metadata(Meta) -> erlang:error(badarg, [Meta]).

update_process_metadata(Meta) when is_map(Meta) ->
    set_process_metadata(maps:merge(get_process_metadata_or_empty(), Meta));
update_process_metadata(Meta) -> erlang:error(badarg, [Meta]).

unset_process_metadata() -> erase(?METAKEY), ok.

get_process_metadata() ->
    case get(?METAKEY) of
        undefined -> undefined;
        M -> M
    end.

get_process_metadata_or_empty() ->
    case get(?METAKEY) of
        undefined -> #{};
        M -> M
    end.

reconfigure() -> ok.
i() -> ok.
i(_) -> ok.
