%% racewit prelude: error_logger, modelled as OTP 25 runs it: a front end
%% of logger (each call is a logger event in the `otp`/`legacy` domain,
%% at error, warning or info level).
-module(error_logger).
-export([error_msg/1, error_msg/2, warning_msg/1, warning_msg/2,
         info_msg/1, info_msg/2, format/2,
         error_report/1, error_report/2, warning_report/1, warning_report/2,
         info_report/1, info_report/2, warning_map/0,
         add_report_handler/1, add_report_handler/2,
         delete_report_handler/1, tty/1, logfile/1]).

error_msg(Format) -> error_msg(Format, []).
error_msg(Format, Args) -> msg(error, Format, Args).
format(Format, Args) -> msg(error, Format, Args).
warning_msg(Format) -> warning_msg(Format, []).
warning_msg(Format, Args) -> msg(warning, Format, Args).
info_msg(Format) -> info_msg(Format, []).
info_msg(Format, Args) -> msg(info, Format, Args).

error_report(Report) -> report(error, std_error, Report).
error_report(Type, Report) -> report(error, Type, Report).
warning_report(Report) -> report(warning, std_warning, Report).
warning_report(Type, Report) -> report(warning, Type, Report).
info_report(Report) -> report(info, std_info, Report).
info_report(Type, Report) -> report(info, Type, Report).

warning_map() -> warning.

msg(Level, Format, Args) ->
    logger:log(Level, Format, Args, #{error_logger => #{tag => tag(Level)},
                                      domain => [otp, legacy]}),
    ok.

report(Level, Type, Report) ->
    Text = case Report of
               [{_, _} | _] -> Report;
               _ when is_map(Report) -> Report;
               _ -> #{report => Report}
           end,
    logger:log(Level, Text, #{error_logger => #{tag => tag(Level), type => Type},
                              domain => [otp, legacy]}),
    ok.

tag(error) -> error;
tag(warning) -> warning_msg;
tag(info) -> info_msg.

add_report_handler(_) -> ok.
add_report_handler(_, _) -> ok.
delete_report_handler(_) -> ok.
tty(_) -> ok.
logfile(_) -> {error, no_log_file}.
