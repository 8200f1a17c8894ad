%% The usual spawn-then-register of a server: the spawned process blocks in
%% receive and only exits on `stop`, which no one can send before the name is
%% registered (its pid has not escaped yet).  Expected: R004 unconfirmed.
-module(long_lived_ok).
-export([start/0, call/1, stop/0, test/0]).

start() ->
    Pid = spawn(fun() -> server_loop(#{}) end),
%%        ^^^^^ R004 #1 read: spawn of a server that waits for messages (unconfirmed)
    register(session_store, Pid),
%%  ^^^^^^^^ R004 #1 write: the server cannot have exited yet
    {ok, Pid}.

call(Req) ->
    Ref = monitor(process, session_store),
    session_store ! {call, self(), Ref, Req},
    receive
        {Ref, Reply} ->
            demonitor(Ref, [flush]),
            Reply;
        {'DOWN', Ref, process, _, Reason} ->
            {error, Reason}
    end.

stop() ->
    session_store ! stop,
    ok.

server_loop(State) ->
    receive
        {call, From, Ref, {put, K, V}} ->
            From ! {Ref, ok},
            server_loop(State#{K => V});
        {call, From, Ref, {get, K}} ->
            From ! {Ref, maps:find(K, State)},
            server_loop(State);
        stop ->
            ok
    end.

test() ->
    {ok, _} = start(),
    ok = call({put, user, 42}),
    Reply = call({get, user}),
    stop(),
    Reply.
