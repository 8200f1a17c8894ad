%% A watchdog started like heart: start/0 looks for the registered
%% watchdog and, when there is none, spawns one that registers itself and
%% acknowledges. boot_entry/0 gives the release tool the boot script entry
%% that makes it a kernel process, which the init process starts once at
%% boot; nothing in the program calls start/0 otherwise.
%% Expected: R001 unconfirmed (serialised: started once by init).
-module(watchdog_ok).
-export([start/0, init/1, boot_entry/0, beat/0, test/0]).

start() ->
    case whereis(watchdog_ok) of
%%       ^^^^^^^ R001 #1 read: registry watchdog_ok, in the one start init makes (serialised)
        undefined ->
            Pid = spawn(?MODULE, init, [self()]),
            receive
                {ok, Pid} -> {ok, Pid}
            end;
        Pid ->
            {ok, Pid}
    end.

init(Starter) ->
    register(watchdog_ok, self()),
%%  ^^^^^^^^ R001 #1 write: by the watchdog of the one start
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
    watchdog_ok ! {beat, self()},
    receive
        {beat, _} -> ok
    end.

boot_entry() ->
    {kernelProcess, watchdog_ok, {watchdog_ok, start, []}}.

test() ->
    {kernelProcess, _, {M, F, A}} = boot_entry(),
    {ok, Pid} = apply(M, F, A),
    ok = beat(),
    Pid ! stop,
    ok.
