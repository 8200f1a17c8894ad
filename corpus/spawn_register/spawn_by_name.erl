%% A profiler-style server started on demand through a helper that is told
%% which spawn BIF to use (erlang:Spawn(Fun)).  Two callers can both find no
%% server and both start one; the second register/2 raises badarg.
%% Expected: R001 reported (the fun the variable spawn runs is followed).
-module(spawn_by_name).
-export([call/1, test/0]).

call(Req) ->
    case whereis(prof_srv) of
%%       ^^^^^^^ R001 #1 read: registry prof_srv
        undefined ->
            start(spawn),
            call(Req);
        Pid ->
            Pid ! {self(), Req},
            receive {Pid, R} -> R after 1000 -> timeout end
    end.

start(Spawn) when Spawn =:= spawn; Spawn =:= spawn_link ->
    erlang:Spawn(fun() ->
                         register(prof_srv, self()),
%%                       ^^^^^^^^ R001 #1 write: badarg for the second starter
                         loop()
                 end).

loop() ->
    receive
        {From, stop} -> From ! {self(), stopped};
        {From, Req} -> From ! {self(), {ok, Req}}, loop()
    end.

test() ->
    R = call(ping),
    stopped = call(stop),
    R.
