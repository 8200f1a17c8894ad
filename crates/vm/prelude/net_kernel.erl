%% racewit prelude: net_kernel on a node that is not distributed (the
%% node racewit models: `nonode@nohost`). Subscribing to node events is
%% accepted (no node ever comes or goes); starting distribution is not
%% modelled (the function is missing, so the call parks).
-module(net_kernel).
-export([monitor_nodes/1, monitor_nodes/2, get_net_ticktime/0,
         connect_node/1, hidden_connect_node/1, nodename/0, allow/1,
         get_state/0]).

monitor_nodes(Flag) when is_boolean(Flag) -> ok;
monitor_nodes(Flag) -> erlang:error(badarg, [Flag]).

monitor_nodes(Flag, Opts) when is_boolean(Flag), is_list(Opts) -> ok;
monitor_nodes(Flag, Opts) -> erlang:error(badarg, [Flag, Opts]).

get_net_ticktime() -> ignored.
connect_node(_) -> ignored.
hidden_connect_node(_) -> ignored.
nodename() -> ignored.
allow(_) -> ignored.
get_state() -> #{started => no}.
