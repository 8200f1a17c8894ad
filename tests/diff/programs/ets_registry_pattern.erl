%% Checks: a realistic ETS-backed registry: lookup-then-insert vs insert_new claim, counters per key, cleanup on process exit via monitor.
-module(ets_registry_pattern).
-export([main/0]).

claim(Name) ->
    case ets:insert_new(rw_names, {Name, self()}) of
        true -> ok;
        false -> {error, taken}
    end.

main() ->
    ets:new(rw_names, [named_table, public, set]),
    Self = self(),
    Workers = [spawn(fun() ->
                             R = claim(shared_name),
                             R2 = claim({own, N}),
                             Self ! {claimed, N, R, R2},
                             receive stop -> ok end
                     end) || N <- lists:seq(1, 8)],
    Results = [receive {claimed, N, R, R2} -> {N, R, R2} end || _ <- Workers],
    io:format("shared ok count: ~p~n", [length([x || {_, ok, _} <- Results])]),
    io:format("own: ~p~n", [lists:usort([R2 || {_, _, R2} <- Results])]),
    [{shared_name, Owner}] = ets:lookup(rw_names, shared_name),
    Ref = monitor(process, Owner),
    Owner ! stop,
    receive {'DOWN', Ref, process, Owner, _} -> ets:match_delete(rw_names, {'_', Owner}) end,
    io:format("after cleanup: ~p~n", [ets:member(rw_names, shared_name)]),
    io:format("size: ~p~n", [ets:info(rw_names, size)]),
    [W ! stop || W <- Workers],
    length([K || {{own, _} = K, _} <- ets:tab2list(rw_names)]).
