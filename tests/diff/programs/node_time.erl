%% Checks: node()/nodes() on a single local node, and the clocks as far as
%% they are deterministic: monotonic_time/0,1 and system_time/0,1 are
%% integers that never go back, system time is a plausible date,
%% unique_integer([monotonic]) increases, convert_time_unit/3 rounds down,
%% the native unit is the nanosecond, universaltime/0 and calendar agree.
-module(node_time).
-export([main/0]).

main() ->
    Node = node(),
    Nodes = nodes(),
    M1 = erlang:monotonic_time(),
    M2 = erlang:monotonic_time(millisecond),
    M3 = erlang:monotonic_time(),
    S1 = erlang:system_time(),
    S2 = erlang:system_time(second),
    U1 = erlang:unique_integer([monotonic]),
    U2 = erlang:unique_integer([monotonic]),
    Conv = [erlang:convert_time_unit(3000000000, nanosecond, millisecond),
            erlang:convert_time_unit(-1999, microsecond, millisecond),
            erlang:convert_time_unit(1, second, native)],
    {{Y, Mo, D}, {H, Mi, S}} = erlang:universaltime(),
    {Date, _} = calendar:universal_time(),
    {Mega, Sec, Micro} = os:timestamp(),
    Secs = calendar:datetime_to_gregorian_seconds({{Y, Mo, D}, {H, Mi, S}}),
    {is_atom(Node), Nodes, is_alive(),
     is_integer(M1), is_integer(M2), M3 >= M1,
     is_integer(S1), S2 > 1600000000, erlang:time_offset(second) > 0,
     U2 > U1, Conv,
     Y >= 2024, Date >= {Y, Mo, D}, Mega * 1000000 + Sec >= S2,
     Micro < 1000000, Secs > 63000000000}.
