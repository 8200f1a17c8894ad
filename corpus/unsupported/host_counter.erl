%% A counter service whose server makes its table, counts its own start and
%% asks the host for its name: start/0 spawns the server and waits until it
%% is ready. racewit never runs a host command, so a harness whose setup is
%% start/0 never gets past it: the server stops at os:cmd/1, start/0 waits
%% for ever, and no worker ever runs. The verdict names the call and says
%% the setup stopped there (nothing is searched).
%% Expected: R002 unconfirmed (unsupported: os:cmd/1, in the setup).
-module(host_counter).
-export([start/0, bump/1, test/0]).

start() ->
    Starter = self(),
    Pid = spawn(fun() -> init(Starter) end),
    receive {Pid, ready} -> {ok, Pid} end.

init(Starter) ->
    ets:new(host_counts, [named_table, public, set]),
    bump(starts),
    Host = os:cmd("hostname"),
    ets:insert(host_counts, {host, Host}),
    Starter ! {self(), ready},
    receive stop -> ok end.

bump(Key) ->
    case ets:lookup(host_counts, Key) of
%%       ^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 #2 read: the key's count (unconfirmed: the setup stops at os:cmd/1)
        [{Key, N}] ->
            ets:insert(host_counts, {Key, N + 1});
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: never reached by a worker
        [] ->
            ets:insert(host_counts, {Key, 1})
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #2 write: never reached by a worker
    end.

test() ->
    {ok, Pid} = start(),
    Self = self(),
    [spawn(fun() -> bump(hits), Self ! done end) || _ <- [1, 2]],
    [receive done -> ok end || _ <- [1, 2]],
    [{hits, N}] = ets:lookup(host_counts, hits),
    Pid ! stop,
    N.
