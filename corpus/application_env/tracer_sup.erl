%% The twin of tracer_sup_ok: the supervisor is started without a name, so
%% every start/0 makes one more, each calling start_tracer/0 in its own
%% process; two of them read the same next id and two tracers get it.
%% Expected: R007 confirmed (non_serializable).
-module(tracer_sup).
-behaviour(supervisor).
-export([start/0, start_tracer/0, test/0]).
-export([init/1]).

start() ->
    supervisor:start_link(?MODULE, []).

init([]) ->
    Flags = {one_for_one, 1, 5},
    Children = [{tracer, {?MODULE, start_tracer, []}, temporary, 1000, worker, [?MODULE]}],
    {ok, {Flags, Children}}.

start_tracer() ->
    Id = case application:get_env(tracer_sup, next_id) of
%%            ^^^^^^^^^^^^^^^^^^^^ R007 #1 read: application tracer_sup, key next_id, (confirmed, non_serializable)
             {ok, N} -> N;
             undefined -> 1
         end,
    application:set_env(tracer_sup, next_id, Id + 1),
%%  ^^^^^^^^^^^^^^^^^^^^ R007 #1 write: another supervisor stored the same id + 1 in between
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
    application:get_env(tracer_sup, next_id).
