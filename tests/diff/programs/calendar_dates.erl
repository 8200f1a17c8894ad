%% Checks: OTP's calendar from source: day of week, leap years, last day of month, date validity, days/seconds conversions.
-module(calendar_dates).
-export([main/0]).
main() ->
    io:format("~p~n", [calendar:day_of_the_week({2024, 2, 29})]),
    io:format("~p~n", [[calendar:is_leap_year(Y) || Y <- [1900, 2000, 2023, 2024]]]),
    io:format("~p~n", [calendar:last_day_of_the_month(2023, 2)]),
    io:format("~p~n", [[calendar:valid_date(D) || D <- [{2023, 2, 29}, {2024, 2, 29}, {2024, 13, 1}]]]),
    io:format("~p~n", [calendar:date_to_gregorian_days({2024, 1, 1})]),
    io:format("~p~n", [calendar:gregorian_days_to_date(739251)]),
    io:format("~p~n", [calendar:datetime_to_gregorian_seconds({{1970, 1, 1}, {0, 0, 0}})]),
    io:format("~p~n", [calendar:seconds_to_daystime(100000)]),
    io:format("~p~n", [calendar:time_difference({{2024, 1, 1}, {0, 0, 0}}, {{2024, 1, 2}, {1, 2, 3}})]),
    ok.
