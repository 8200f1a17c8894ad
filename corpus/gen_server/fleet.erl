%% The twin of fleet_ok: besides the worker its init/1 starts, the manager
%% lets any process add a worker (add_worker/0 starts it in the caller).
%% Two callers start two workers at once, both init/1s read the same
%% count, and one addition is lost.
%% Expected: R006 confirmed (non_serializable).
-module(fleet).
-behaviour(gen_server).
-export([start/0, stop/0, size/0, add_worker/0, test/0]).
-export([init/1, handle_call/3, handle_cast/2]).

start() ->
    gen_server:start({local, ?MODULE}, ?MODULE, [], []).

stop() ->
    gen_server:stop(?MODULE).

size() ->
    persistent_term:get(fleet_workers, 0).

add_worker() ->
    {ok, Worker} = fleet_worker:start_link(),
    Worker.

init([]) ->
    process_flag(trap_exit, true),
    {ok, Worker} = fleet_worker:start_link(),
    {ok, [Worker]}.

handle_call(workers, _From, Workers) ->
    {reply, Workers, Workers}.

handle_cast(_Msg, Workers) ->
    {noreply, Workers}.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), add_worker()} end) || _ <- [1, 2]],
    [receive {done, P, _} -> ok end || P <- Pids],
    N = size(),
    N.
