%% racewit prelude: global locks on one node. A lock on ResourceId is held
%% by one LockRequesterId at a time; a caller that finds it held waits until
%% it is released or its holder dies, then tries again. Retries = N gives up
%% (false / aborted) after N + 1 tries that met the lock held: each wait
%% lasts until the lock changes hands, where the BEAM sleeps a random time,
%% so a give-up happens here only while the holder still holds the lock.
-module(global).
-export([set_lock/1, set_lock/2, set_lock/3, del_lock/1, del_lock/2,
         trans/2, trans/3, trans/4]).

set_lock(Id) -> set_lock(Id, [node()], infinity).
set_lock(Id, Nodes) -> set_lock(Id, Nodes, infinity).
set_lock({ResourceId, Requester}, _Nodes, Retries) ->
    case racewit:global_lock(ResourceId, Requester) of
        true ->
            true;
        {held, _Owner} when Retries =:= 0 ->
            false;
        {held, Owner} ->
            Ref = erlang:monitor(process, Owner),
            receive
                {'$racewit_global_free', ResourceId} -> ok;
                {'DOWN', Ref, process, Owner, _} -> ok
            end,
            erlang:demonitor(Ref, [flush]),
            set_lock({ResourceId, Requester}, _Nodes, next(Retries))
    end;
set_lock(Id, Nodes, Retries) ->
    erlang:error(badarg, [Id, Nodes, Retries]).

del_lock(Id) -> del_lock(Id, [node()]).
del_lock({ResourceId, Requester}, _Nodes) ->
    racewit:global_unlock(ResourceId, Requester).

trans(Id, Fun) -> trans(Id, Fun, [node()], infinity).
trans(Id, Fun, Nodes) -> trans(Id, Fun, Nodes, infinity).
trans(Id, Fun, Nodes, Retries) ->
    case set_lock(Id, Nodes, Retries) of
        true ->
            try Fun()
            after del_lock(Id, Nodes)
            end;
        false ->
            aborted
    end.

next(infinity) -> infinity;
next(N) when is_integer(N), N > 0 -> N - 1.
