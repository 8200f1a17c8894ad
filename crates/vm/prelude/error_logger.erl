%% racewit prelude: error_logger, modelled as OTP 25 runs it. Its API is a
%% front end of logger: each call is a logger event carrying an
%% `error_logger` tag in its metadata. The `error_logger` process is not
%% registered at boot: start/0 starts it as a gen_event registered as
%% error_logger (OTP starts it under logger_sup, so it is linked to no
%% caller here), and the logger handler `error_logger` (this module's
%% adding_handler/1, log/2, removing_handler/1) hands each event it gets
%% on to the gen_event's handlers as `{Tag, GroupLeader, {Pid, FormatOrType,
%% ArgsOrReport}}`. add_report_handler/1,2 installs that logger handler and
%% a gen_event handler; delete_report_handler/1 removes the logger handler
%% with the last gen_event handler. logfile/1 is not here: it opens a file
%% on the host through error_logger_file_h, so the call parks, named.
-module(error_logger).
-export([start/0, start_link/0, stop/0,
         error_msg/1, error_msg/2, warning_msg/1, warning_msg/2,
         info_msg/1, info_msg/2, format/2, error_info/1,
         error_report/1, error_report/2, warning_report/1, warning_report/2,
         info_report/1, info_report/2, warning_map/0,
         add_report_handler/1, add_report_handler/2,
         delete_report_handler/1, which_report_handlers/0, tty/1,
         adding_handler/1, removing_handler/1, log/2,
         get_format_depth/0, limit_term/1]).

%%% The process

start() ->
    case whereis(error_logger) of
        undefined ->
            case gen_event:start({local, error_logger}) of
                {ok, _Pid} -> ok;
                Error -> Error
            end;
        _ -> ok
    end.

start_link() ->
    gen_event:start_link({local, error_logger}).

stop() ->
    case whereis(error_logger) of
        undefined -> ok;
        _Pid ->
            _ = gen_event:stop(error_logger),
            ok
    end.

%%% The logger handler

adding_handler(#{id := error_logger} = Config) ->
    case start() of
        ok -> {ok, Config};
        Error -> Error
    end.

removing_handler(#{id := error_logger}) ->
    stop(),
    ok.

log(#{level := Level, msg := Msg, meta := Meta}, _Config) ->
    forward(Level, Msg, Meta).

%% A report from the *_report functions (or a logger call whose metadata
%% carries their tag and type) goes on as the report itself.
forward(Level, {report, Msg}, #{error_logger := #{tag := Tag, type := Type}} = Meta) ->
    Report = case Msg of
                 #{label := _, report := R} -> R;
                 _ -> Msg
             end,
    notify(Level, Tag, Type, Report, Meta);
%% A message from the *_msg functions goes on as its format and arguments,
%% unchecked; another report with the tag is formatted by its report_cb.
forward(Level, {report, Msg}, #{error_logger := #{tag := Tag}} = Meta) ->
    {Format, Args} =
        case Msg of
            #{label := _, format := F, args := A} -> {F, A};
            _ -> report_cb_text(Msg, Meta)
        end,
    notify(Level, Tag, Format, Args, Meta);
forward(Level, {Format, Args}, #{error_logger := #{tag := Tag}} = Meta)
  when is_list(Format), is_list(Args) ->
    notify(Level, Tag, Format, Args, Meta);
%% An event without the tag is not error_logger's.
forward(_Level, _Msg, _Meta) ->
    ok.

report_cb_text(Msg, Meta) ->
    case report_cb(Meta) of
        Cb when is_function(Cb, 1) ->
            try Cb(Msg) of
                {F, A} when is_list(F), is_list(A) -> {F, A};
                Other -> {"REPORT_CB ERROR: ~tp; Returned: ~tp", [Msg, Other]}
            catch C:R:S -> {"REPORT_CB CRASH: ~tp; Reason: ~tp", [Msg, {C, R, S}]}
            end;
        Cb when is_function(Cb, 2) ->
            try Cb(Msg, #{depth => get_format_depth(), chars_limit => unlimited,
                          single_line => false}) of
                Text when is_list(Text); is_binary(Text) -> {"~ts", [Text]};
                Other -> {"REPORT_CB ERROR: ~tp; Returned: ~tp", [Msg, Other]}
            catch C:R -> {"REPORT_CB CRASH: ~tp; Reason: ~tp", [Msg, {C, R}]}
            end
    end.

report_cb(#{error_logger := #{report_cb := Cb}}) -> Cb;
report_cb(#{report_cb := Cb}) -> Cb;
report_cb(_) -> fun logger:format_report/1.

notify(Level, Tag0, FormatOrType0, ArgsOrReport, #{pid := Pid0, gl := GL, error_logger := My}) ->
    {Tag, FormatOrType} = map_warning(Level, Tag0, FormatOrType0),
    Pid = case maps:get(emulator, My, false) of
              true -> emulator;
              _ -> Pid0
          end,
    gen_event:notify(error_logger, {Tag, GL, {Pid, FormatOrType, ArgsOrReport}}).

%% A warning goes on as what warning_map/0 maps warnings to.
map_warning(warning, Tag, FormatOrType) ->
    case warning_map() of
        warning -> {Tag, FormatOrType};
        error -> {warning_tag(error, Tag), warning_type(error, FormatOrType)};
        info -> {warning_tag(info, Tag), warning_type(info, FormatOrType)}
    end;
map_warning(_, Tag, FormatOrType) ->
    {Tag, FormatOrType}.

warning_tag(error, warning_msg) -> error;
warning_tag(error, warning_report) -> error_report;
warning_tag(info, warning_msg) -> info_msg;
warning_tag(info, warning_report) -> info_report;
warning_tag(_, Tag) -> Tag.

warning_type(error, std_warning) -> std_error;
warning_type(info, std_warning) -> std_info;
warning_type(_, Type) -> Type.

%% The emulator's `+W` flag; a node starts with `w`.
warning_map() -> warning.

%%% The API: logger events

error_msg(Format) -> error_msg(Format, []).
error_msg(Format, Args) -> msg(error, error, Format, Args).
format(Format, Args) -> error_msg(Format, Args).
warning_msg(Format) -> warning_msg(Format, []).
warning_msg(Format, Args) -> msg(warning, warning_msg, Format, Args).
info_msg(Format) -> info_msg(Format, []).
info_msg(Format, Args) -> msg(notice, info_msg, Format, Args).

error_report(Report) -> error_report(std_error, Report).
error_report(Type, Report) -> report(error, error_report, Type, Report).
warning_report(Report) -> warning_report(std_warning, Report).
warning_report(Type, Report) -> report(warning, warning_report, Type, Report).
info_report(Report) -> info_report(std_info, Report).
info_report(Type, Report) -> report(notice, info_report, Type, Report).

msg(Level, Tag, Format, Args) ->
    logger:log(Level, #{label => {error_logger, Tag}, format => Format, args => Args},
               meta(Tag, undefined)).

report(Level, Tag, Type, Report) ->
    logger:log(Level, #{label => {error_logger, Tag}, report => Report}, meta(Tag, Type)).

error_info(Error) ->
    {Format, Args} = case is_string(Error) of
                         true -> {Error, []};
                         false -> {"~p", [Error]}
                     end,
    logger:log(notice, Format, Args,
               #{error_logger => #{tag => info, type => Error}, domain => [Error]}).

is_string(L) when is_list(L) ->
    case lists:flatten(L) of
        [] -> false;
        Flat -> io_lib:printable_list(Flat)
    end;
is_string(_) -> false.

meta(Tag, undefined) ->
    #{report_cb => fun report_to_format/1, error_logger => #{tag => Tag}};
meta(Tag, Type) ->
    Meta = #{report_cb => fun report_to_format/1, error_logger => #{tag => Tag, type => Type}},
    case {Tag, Type} of
        {error_report, std_error} -> Meta;
        {info_report, std_info} -> Meta;
        {warning_report, std_warning} -> Meta;
        _ -> Meta#{domain => [Type]}
    end.

%% How a logger handler formats one of these events: a map report printed
%% whole, a message as written (or as a term, when its format and arguments
%% do not go together).
report_to_format(#{label := {error_logger, _}, report := Report}) when is_map(Report) ->
    {"~tp\n", [Report]};
report_to_format(#{label := {error_logger, _}, format := Format, args := Args}) ->
    try io_lib:scan_format(Format, Args) of
        _ -> {Format, Args}
    catch _:_ -> {"ERROR: ~tp - ~tp", [Format, Args]}
    end;
report_to_format(Term) ->
    logger:format_otp_report(Term).

%%% Report handlers

add_report_handler(Module) when is_atom(Module) ->
    add_report_handler(Module, []).

add_report_handler(Module, Args) when is_atom(Module) ->
    _ = logger:add_handler(error_logger, error_logger, #{level => info, filter_default => log}),
    gen_event:add_handler(error_logger, Module, Args).

delete_report_handler(Module) when is_atom(Module) ->
    case whereis(error_logger) of
        Pid when is_pid(Pid) ->
            Return = gen_event:delete_handler(error_logger, Module, []),
            case gen_event:which_handlers(error_logger) of
                [] -> _ = logger:remove_handler(error_logger), ok;
                _ -> ok
            end,
            Return;
        _ -> ok
    end.

which_report_handlers() ->
    case whereis(error_logger) of
        Pid when is_pid(Pid) -> gen_event:which_handlers(error_logger);
        undefined -> []
    end.

%% Printing on the terminal: OTP's default handler (logger_std_h on
%% standard_io) stops or passes error_logger's events through a filter.
tty(true) ->
    _ = case lists:member(error_logger_tty_h, which_report_handlers()) of
            false ->
                case logger:get_handler_config(default) of
                    {ok, #{module := logger_std_h, config := #{type := standard_io}}} ->
                        logger:remove_handler_filter(default, error_logger_tty_false);
                    _ ->
                        logger:add_handler(error_logger_tty_true, logger_std_h,
                                           #{filter_default => stop,
                                             filters => tty_filters(),
                                             formatter => {logger_formatter,
                                                           #{legacy_header => true,
                                                             single_line => false}},
                                             config => #{type => standard_io}})
                end;
            true -> ok
        end,
    ok;
tty(false) ->
    _ = delete_report_handler(error_logger_tty_h),
    _ = logger:remove_handler(error_logger_tty_true),
    _ = case logger:get_handler_config(default) of
            {ok, #{module := logger_std_h, config := #{type := standard_io}}} ->
                logger:add_handler_filter(default, error_logger_tty_false,
                                          {fun(_, _) -> stop end, ok});
            _ -> ok
        end,
    ok.

tty_filters() ->
    [{remote_gl, {fun logger_filters:remote_gl/2, stop}},
     {domain, {fun logger_filters:domain/2, {log, super, [otp]}}},
     {no_domain, {fun logger_filters:domain/2, {log, undefined, []}}}].

%%% Formatting depth (kernel's error_logger_format_depth)

get_format_depth() ->
    case application:get_env(kernel, error_logger_format_depth) of
        {ok, Depth} when is_integer(Depth) -> max(10, Depth);
        {ok, unlimited} -> unlimited;
        undefined -> unlimited
    end.

limit_term(Term) ->
    case get_format_depth() of
        unlimited -> Term;
        D -> io_lib:limit_term(Term, D)
    end.
