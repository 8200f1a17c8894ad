-module(selfref).
%% The application's own header through -include_lib, as libraries that
%% are also used as dependencies write it: found from the directory's name.
-include_lib("selfref/include/selfref.hrl").
%% A header named from the project's root, as rebar3 allows.
-include("src/internal.hrl").
-export([name/0, version/0]).

name() -> ?NAME.

version() -> ?VERSION.
