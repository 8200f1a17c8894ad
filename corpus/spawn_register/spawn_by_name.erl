%% A profiler-style server started on demand through a helper that is told
%% which spawn BIF to use (erlang:Spawn(Fun)).  Two callers can both find no
%% server and both start one; the second server's register/2 raises badarg.
%% Expected: R001 confirmed, crash (the fun the variable spawn runs is followed).
-module(spawn_by_name).
-export([call/1, test/0]).

call(Req) ->
    case whereis(prof_srv) of
%%       ^^^^^^^ R001 #1 read: registry prof_srv (confirmed, crash)
        undefined ->
            _ = start(spawn),
            started;
        Pid ->
            Pid ! Req,
            sent
    end.

start(Spawn) when Spawn =:= spawn; Spawn =:= spawn_link ->
    erlang:Spawn(fun() ->
                         register(prof_srv, self()),
%%                       ^^^^^^^^ R001 #1 write: badarg for the second server
                         loop()
                 end).

loop() ->
    receive
        stop -> ok;
        _ -> loop()
    end.

test() ->
    call(ping).
