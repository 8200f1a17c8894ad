%% A per-caller store like asn1_db's: start/1 spawns a server that monitors
%% its caller and follows it (it exits with the reason of its 'DOWN'); the
%% server's loop reads and writes the table it was given on its caller's
%% requests. A harness worker calling start/1 returns at once and ends, so the server
%% follows it (noproc) before any request: the read is never executed,
%% and the server following its caller is not the harness crashing.
%% Expected: R002 unconfirmed (not_reached).
-module(caller_store).
-export([start/1, new/1, add/3, stop/0, test/0]).

-record(state, {parent, monitor, table}).

start(Table) ->
    Parent = self(),
    undefined = get(?MODULE),
    put(?MODULE, spawn_link(fun() -> init(Parent, Table) end)),
    ok.

new(Bucket) -> cast({new, Bucket}).
add(Bucket, Key, Value) -> cast({add, Bucket, Key, Value}).

cast(Request) ->
    get(?MODULE) ! Request,
    ok.

stop() ->
    Pid = erase(?MODULE),
    unlink(Pid),
    exit(Pid, kill),
    ok.

init(Parent, Table) ->
    MRef = erlang:monitor(process, Parent),
    loop(#state{parent = Parent, monitor = MRef, table = Table}).

loop(#state{parent = Parent, monitor = MRef, table = Table} = State) ->
    receive
        {new, Bucket} ->
            [] = ets:lookup(Table, Bucket),
%%               ^^^^^^^^^^ R002 #1 read: the index, in the store's own process (not reached)
            ets:insert(Table, {Bucket, ets:new(bucket, [public])}),
%%          ^^^^^^^^^^ R002 #1 #2 write: never reached: no request comes before the store follows its caller
            loop(State);
        {add, Bucket, Key, Value} ->
            [{_, Tab}] = ets:lookup(Table, Bucket),
%%                       ^^^^^^^^^^ R002 #2 read: the index, in the store's own process (not reached)
            ets:insert(Tab, {Key, Value}),
            loop(State);
        {'DOWN', MRef, process, Parent, Reason} ->
            exit(Reason)
    end.

test() ->
    ok = start(ets:new(store_index, [public])),
    ok = new(b),
    ok = add(b, k, 1),
    stop(),
    ok.
