%% Tenant cache processes started with spawn/3: the caller checks the
%% registry, and the started process registers itself in init/1 before it
%% loops.  The write is in the M:F/A body of the spawned process, so two first
%% callers start two caches and the second dies with badarg; the starter
%% monitors it and returns lost_start_race: a death the program handles.
%% Expected: R001 confirmed, none, bound 1.
-module(mfa_self_register).
-export([ensure/1, init/1, lookup/2, test/0]).

cache_name(Tenant) when is_atom(Tenant) ->
    list_to_atom("tenant_cache_" ++ atom_to_list(Tenant)).

ensure(Tenant) ->
    Name = cache_name(Tenant),
    case whereis(Name) of
%%       ^^^^^^^ R001 #1 read: registry tenant_cache_<Tenant> (confirmed, none)
        undefined ->
            Pid = spawn(?MODULE, init, [{Name, self()}]),
            MRef = monitor(process, Pid),
            receive
                {cache_up, Name} -> ok;
                {'DOWN', MRef, process, Pid, _} -> lost_start_race
            end,
            demonitor(MRef, [flush]),
            Name;
        _Pid ->
            Name
    end.

init({Name, Starter}) ->
    register(Name, self()),
%%  ^^^^^^^^ R001 #1 write: in the spawn/3 body; the second cache gets badarg
    Starter ! {cache_up, Name},
    cache_loop(#{}).

cache_loop(Entries) ->
    receive
        {put, K, V} -> cache_loop(Entries#{K => V});
        {get, From, K} -> From ! {cache_value, maps:get(K, Entries, none)}, cache_loop(Entries);
        stop -> ok
    end.

lookup(Tenant, Key) ->
    ensure(Tenant) ! {get, self(), Key},
    receive {cache_value, V} -> V after 500 -> timeout end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), lookup(acme, plan)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> R end || P <- Pids],
    tenant_cache_acme ! stop,
    Results.
