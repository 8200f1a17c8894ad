%% The module a process reloads while another calls it: version 1 here,
%% version 2 made at run time by reload:load_v2/0.
-module(reload_vsn).
-export([version/0]).

version() -> 1.
