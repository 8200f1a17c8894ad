%% The worker of fleet_ok: an unnamed gen_server whose init/1 adds itself
%% to the fleet's count (a read and a write of one persistent_term). Only
%% fleet_ok's init/1 starts it (see fleet_ok.erl).
%% Expected: R006 filtered.
-module(fleet_ok_worker).
-behaviour(gen_server).
-export([start_link/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start_link() ->
    gen_server:start_link(?MODULE, [], []).

init([]) ->
    N = persistent_term:get(fleet_ok_workers, 0),
%%      ^^^^^^^^^^^^^^^^^^^ R006 #1 read: persistent_term fleet_ok_workers, in a worker's init/1 (filtered)
    persistent_term:put(fleet_ok_workers, N + 1),
%%  ^^^^^^^^^^^^^^^^^^^ R006 #1 write: every worker start waits for this init/1, and all are in fleet_ok's init/1
    {ok, N + 1}.

handle_call(id, _From, Id) ->
    {reply, Id, Id}.

handle_cast(_Msg, Id) ->
    {noreply, Id}.

%% Workers are started through the fleet: its test is theirs.
test() ->
    fleet_ok:test().
