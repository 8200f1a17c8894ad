%% Checks: deterministic calendar functions: leap years, day of week, gregorian days/seconds round trips, last_day_of_the_month, valid_date.
-module(std_calendar).
-export([main/0]).

main() ->
    io:format("~p~n", [[Y || Y <- [1900, 2000, 2023, 2024, 2100], calendar:is_leap_year(Y)]]),
    io:format("~p~n", [calendar:day_of_the_week({2024, 2, 29})]),
    io:format("~p~n", [calendar:day_of_the_week(2000, 1, 1)]),
    D = calendar:date_to_gregorian_days({2024, 3, 1}),
    io:format("~p~n", [D]),
    io:format("~p~n", [calendar:gregorian_days_to_date(D - 1)]),
    S = calendar:datetime_to_gregorian_seconds({{1970, 1, 1}, {0, 0, 0}}),
    io:format("~p~n", [S]),
    io:format("~p~n", [calendar:gregorian_seconds_to_datetime(S + 86399)]),
    io:format("~p~n", [[calendar:last_day_of_the_month(2023, M) || M <- lists:seq(1, 12)]]),
    io:format("~p ~p~n", [calendar:valid_date({2023, 2, 29}), calendar:valid_date(2024, 2, 29)]),
    io:format("~p~n", [calendar:time_difference({{2024, 1, 1}, {0, 0, 0}}, {{2024, 1, 2}, {1, 2, 3}})]),
    io:format("~p~n", [calendar:seconds_to_time(3725)]),
    calendar:iso_week_number({2024, 12, 30}).
