%% A client that calls a server with a short timeout and no request
%% reference.  When the first reply arrives after the timeout it stays in the
%% mailbox and is taken as the answer to the second call; the client's sanity
%% check then crashes.  Expected: explore crash (the client exits abnormally).
-module(late_reply).
-export([start_server/0, call/2, test/0]).

start_server() ->
    spawn(fun() -> server_loop() end).

server_loop() ->
    receive
        {square, From, N} ->
            From ! {reply, N * N},
            server_loop();
        stop ->
            ok
    end.

call(Server, N) ->
    Server ! {square, self(), N},
    receive
        {reply, R} -> R
    after 20 ->
        timeout
    end.

client(Server) ->
    _ = call(Server, 3),
    case call(Server, 4) of
        16 -> ok;
        timeout -> ok;
        Other -> exit({wrong_reply, Other})
    end.

test() ->
    Server = start_server(),
    {Client, Ref} = spawn_monitor(fun() -> client(Server) end),
    Result = receive
                 {'DOWN', Ref, process, Client, normal} -> ok;
                 {'DOWN', Ref, process, Client, Reason} -> {client_crashed, Reason}
             end,
    Server ! stop,
    Result.
