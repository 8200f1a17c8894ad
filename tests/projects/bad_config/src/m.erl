-module(m).
-export([f/0]).

f() -> {?GOOD, ?ALSO_GOOD}.
