%% A supervisor started only under its module's name has one child, whose
%% start function numbers it: it reads the next tracer id from the
%% application environment and stores the one after. The supervisor
%% process calls start functions itself, one at a time, and there is one
%% such supervisor: no two reads of the id overlap.
%% Expected: R007 filtered (run once, by the one supervisor).
-module(tracer_sup_ok).
-behaviour(supervisor).
-export([start/0, start_tracer/0, test/0]).
-export([init/1]).

start() ->
    supervisor:start_link({local, ?MODULE}, ?MODULE, []).

init([]) ->
    Flags = {one_for_one, 1, 5},
    Children = [{tracer, {?MODULE, start_tracer, []}, temporary, 1000, worker, [?MODULE]}],
    {ok, {Flags, Children}}.

start_tracer() ->
    Id = case application:get_env(tracer_sup_ok, next_id) of
%%            ^^^^^^^^^^^^^^^^^^^^ R007 #1 read: application tracer_sup_ok, key next_id, in the supervisor (filtered)
             {ok, N} -> N;
             undefined -> 1
         end,
    application:set_env(tracer_sup_ok, next_id, Id + 1),
%%  ^^^^^^^^^^^^^^^^^^^^ R007 #1 write: only the one supervisor calls start_tracer/0
    {ok, spawn_link(fun() -> trace(Id) end)}.

trace(Id) ->
    receive
        {id, From} -> From ! {id, Id}, trace(Id)
    end.

test() ->
    process_flag(trap_exit, true),
    Self = self(),
    Pids = [spawn(fun() -> Self ! {done, self(), start()} end) || _ <- [1, 2]],
    [receive {done, P, _} -> ok end || P <- Pids],
    application:get_env(tracer_sup_ok, next_id).
