%% A message deduplicator: each dedup worker keeps the ids it has seen in its
%% own private, unnamed table.  The lookup/insert pair runs only in the process
%% that owns the table.  Expected: filtered (private table).
-module(private_ok).
-export([start/0, submit/2, stop/1, test/0]).

start() ->
    spawn(fun() ->
                  Seen = ets:new(seen_ids, [private, set]),
                  dedup_loop(Seen, [])
          end).

submit(Worker, {Id, _Body} = Msg) when is_integer(Id) ->
    Worker ! {msg, Msg},
    ok.

stop(Worker) ->
    Ref = make_ref(),
    Worker ! {stop, self(), Ref},
    receive {Ref, Delivered} -> Delivered end.

dedup_loop(Seen, Delivered) ->
    receive
        {msg, {Id, Body}} ->
            case ets:lookup(Seen, Id) of
%%               ^^^^^^^^^^ R002 #1 read (filtered): private table of this worker
                [] ->
                    ets:insert(Seen, {Id, true}),
%%                  ^^^^^^^^^^ R002 #1 write (filtered): no other process can touch it
                    dedup_loop(Seen, [Body | Delivered]);
                [_] ->
                    dedup_loop(Seen, Delivered)
            end;
        {stop, From, Ref} ->
            From ! {Ref, lists:reverse(Delivered)}
    end.

test() ->
    W = start(),
    Self = self(),
    Pids = [spawn(fun() -> submit(W, {1, hello}), submit(W, {N, x}), Self ! {done, self()} end)
            || N <- [2, 3]],
    [receive {done, P} -> ok end || P <- Pids],
    lists:sort(stop(W)).
