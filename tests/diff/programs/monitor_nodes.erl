%% Checks: process_flag(monitor_nodes, Bool) counts subscriptions, net_kernel:monitor_nodes/1,2 answer ok on a node that is not distributed, a bad flag value is badarg.
-module(monitor_nodes).
-export([main/0]).

main() ->
    Counts = [process_flag(monitor_nodes, true), process_flag(monitor_nodes, true),
              process_flag(monitor_nodes, false), process_flag(monitor_nodes, false)],
    io:format("~p~n", [Counts]),
    io:format("~p~n", [[net_kernel:monitor_nodes(true), net_kernel:monitor_nodes(false)]]),
    io:format("~p~n", [net_kernel:monitor_nodes(true, [nodedown_reason])]),
    io:format("~p~n", [try process_flag(monitor_nodes, maybe) catch error:R -> R end]),
    receive Any -> {unexpected, Any} after 10 -> no_node_messages end.
