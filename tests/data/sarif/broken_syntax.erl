%% Test data for the SARIF tests: load errors and no race, so the SARIF log
%% has tool notifications and no result.
-module(broken_syntax).
-export([f/0]).
-include("no_such_header.hrl").

f() ->
    ?UNDEFINED_MACRO + (1.
