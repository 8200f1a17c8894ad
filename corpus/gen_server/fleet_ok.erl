%% A fleet manager, one gen_server under its module's name, starts its
%% first worker from its init/1; fleet_ok_worker's init/1 counts the
%% workers in a persistent_term. Every start of a worker is there, and
%% gen_server:start_link/3 returns only after the worker's init/1 has:
%% the read and the write of the count never run twice at once.
%% Expected: R006 filtered (the worker's init/1 runs inside the manager's).
-module(fleet_ok).
-behaviour(gen_server).
-export([start/0, stop/0, size/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() ->
    gen_server:stop(?MODULE).

size() ->
    persistent_term:get(fleet_ok_workers, 0).

init([]) ->
    process_flag(trap_exit, true),
    {ok, Worker} = fleet_ok_worker:start_link(),
    {ok, [Worker]}.

handle_call(workers, _From, Workers) ->
    {reply, Workers, Workers}.

handle_cast(_Msg, Workers) ->
    {noreply, Workers}.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), start()} end) || _ <- [1, 2]],
    [receive {done, P, _} -> ok end || P <- Pids],
    N = size(),
    stop(),
    N.
