%% Checks: OTP's calendar: iso_week_number, rfc3339 to/from system time with units and offsets, seconds_to_time.
-module(calendar_iso_rfc3339).
-export([main/0]).
main() ->
    io:format("~p~n", [calendar:iso_week_number({2021, 1, 3})]),
    io:format("~p~n", [calendar:iso_week_number({2024, 12, 30})]),
    io:format("~p~n", [calendar:system_time_to_rfc3339(0, [{offset, "Z"}])]),
    io:format("~p~n", [calendar:system_time_to_rfc3339(1500000000123, [{unit, millisecond}, {offset, "+02:00"}])]),
    io:format("~p~n", [calendar:rfc3339_to_system_time("2024-01-01T00:00:00Z")]),
    io:format("~p~n", [calendar:rfc3339_to_system_time("2024-01-01T01:00:00.5+01:00", [{unit, millisecond}])]),
    io:format("~p~n", [calendar:seconds_to_time(3661)]),
    io:format("~p~n", [calendar:gregorian_seconds_to_datetime(63870000000)]),
    ok.
