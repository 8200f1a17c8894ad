%% The worker of fleet: an unnamed gen_server whose init/1 adds itself to
%% the fleet's count. fleet's add_worker/0 starts it from any process (see
%% fleet.erl).
%% Expected: R006 confirmed (non_serializable).
-module(fleet_worker).
-behaviour(gen_server).
-export([start_link/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link(?MODULE, [], []).

init([]) ->
    N = persistent_term:get(fleet_workers, 0),
%%      ^^^^^^^^^^^^^^^^^^^ R006 #1 read: persistent_term fleet_workers (confirmed, non_serializable)
    persistent_term:put(fleet_workers, N + 1),
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 write: another worker's init/1 added itself in between: lost
    {ok, N + 1}.

handle_call(id, _From, Id) ->
    {reply, Id, Id}.

handle_cast(_Msg, Id) ->
    {noreply, Id}.

%% Workers are started through the fleet: its test is theirs.
test() ->
    fleet:test().
