%% Checks: OTP's calendar: now_to_datetime/universal_time on fixed timestamps, day_of_the_week/3, date_to_gregorian_days/3, valid_date/3, time_to_seconds.
-module(calendar_conversions).
-export([main/0]).
main() ->
    io:format("~p~n", [calendar:now_to_datetime({1704, 67200, 0})]),
    io:format("~p~n", [calendar:now_to_universal_time({0, 86400, 5})]),
    io:format("~p~n", [calendar:day_of_the_week(2000, 1, 1)]),
    io:format("~p~n", [calendar:date_to_gregorian_days(1970, 1, 1)]),
    io:format("~p~n", [calendar:valid_date(2023, 4, 31)]),
    io:format("~p~n", [calendar:time_to_seconds({1, 1, 1})]),
    io:format("~p~n", [calendar:gregorian_days_to_date(0)]),
    io:format("~p~n", [calendar:system_time_to_universal_time(86400, second)]),
    ok.
