-export([f/0]).
f() -> ok.
