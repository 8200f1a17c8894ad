-module(b_client).
-include_lib("app_a/include/a.hrl").
-include_lib("dep_x/include/dep.hrl").
-export([state/0, greeting/0, dep/0]).

state() -> #a_state{}.

greeting() -> ?B_GREETING.

dep() -> ?DEP.
