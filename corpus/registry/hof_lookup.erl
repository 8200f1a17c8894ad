%% A generic get-or-start helper used by several subsystems: the caller passes
%% the lookup as a fun, so the registry read happens inside a fun handed to
%% get_or_start/3 and the write in the start fun.  Two cache_for/1 callers for
%% the same region both miss.  Expected: R001 confirmed, crash, bound 1.
-module(hof_lookup).
-export([get_or_start/3, cache_for/1, test/0]).

get_or_start(Name, Lookup, Start) ->
    case Lookup(Name) of
        undefined -> Start(Name);
        Pid when is_pid(Pid) -> Pid
    end.

cache_for(Region) ->
    Name = list_to_atom(atom_to_list(Region) ++ "_cache"),
    get_or_start(Name,
                 fun(N) -> whereis(N) end,
%%                         ^^^^^^^ R001 #1 read: registry <Region>_cache, inside a fun (confirmed, crash)
                 fun(N) ->
                         Pid = spawn(fun() -> cache_loop(#{}) end),
                         register(N, Pid),
%%                       ^^^^^^^^ R001 #1 write: second starter gets badarg
                         Pid
                 end).

cache_loop(Map) ->
    receive
        {put, K, V} -> cache_loop(Map#{K => V});
        {get, From, K} -> From ! {cached, maps:get(K, Map, undefined)}, cache_loop(Map);
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch cache_for(eu)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> is_pid(R) end || P <- Pids],
    catch eu_cache ! stop,
    Results.
