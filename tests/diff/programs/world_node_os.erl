%% Checks: the node model: node/0, nodes/0, is_alive/0, net_kernel:monitor_nodes, erlang:pre_loaded/0, os:type/0.
-module(world_node_os).
-export([main/0]).
main() ->
    io:format("~p ~p ~p~n", [node(), nodes(), is_alive()]),
    io:format("~p ~p~n", [net_kernel:monitor_nodes(true), net_kernel:monitor_nodes(false)]),
    io:format("~p~n", [net_kernel:monitor_nodes(true, [nodedown_reason])]),
    io:format("~p ~p~n", [net_kernel:get_net_ticktime(), net_kernel:connect_node('x@y')]),
    io:format("~p~n", [lists:sort(erlang:pre_loaded())]),
    io:format("~p~n", [os:type()]),
    receive {nodeup, N} -> io:format("unexpected ~p~n", [N]) after 0 -> ok end,
    ok.
