%% The twin of watchdog_ok: the same heart-like start/0, but no boot
%% script names it, so it is an API any process may call. Two callers both
%% find no watchdog and spawn one each; the second watchdog's register
%% raises badarg and its starter waits for an acknowledgement forever.
%% Expected: R001 confirmed crash.
-module(watchdog).
-export([start/0, init/1, beat/0, test/0]).

start() ->
    case whereis(watchdog) of
%%       ^^^^^^^ R001 #1 read: registry watchdog, in each caller's start
        undefined ->
            Pid = spawn(?MODULE, init, [self()]),
            receive
                {ok, Pid} -> {ok, Pid}
            end;
        Pid ->
            {ok, Pid}
    end.

init(Starter) ->
    register(watchdog, self()),
%%  ^^^^^^^^ R001 #1 write: the second watchdog's register raises badarg
    Starter ! {ok, self()},
    loop().

loop() ->
    receive
        {beat, From} ->
            From ! {beat, self()},
            loop();
        stop ->
            ok
    end.

beat() ->
    watchdog ! {beat, self()},
    receive
        {beat, _} -> ok
    end.

test() ->
    {ok, Pid} = start(),
    ok = beat(),
    Pid ! stop,
    ok.
