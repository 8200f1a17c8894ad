-module(a_server).
-include("shared.hrl").
-include("a.hrl").
-export([ensure_started/0, loop/1]).

%% Starts the server on first use: whereis/2 then register/2 on the name
%% rebar.config defines, a race between two first callers.
ensure_started() ->
    case whereis(?SERVER) of
        undefined ->
            Pid = spawn(?MODULE, loop, [#a_state{}]),
            register(?SERVER, Pid),
            {ok, Pid};
        Pid ->
            {ok, Pid}
    end.

loop(State) ->
    receive
        {get, From} ->
            From ! {state, State, ?TIMEOUT},
            loop(State);
        stop ->
            ok
    end.
