%% A coordinator process registers itself under its module's name, then
%% makes sure its helper runs: ensure_helper/0 checks whereis and registers
%% a fresh helper. Only the coordinator calls ensure_helper/0, after its own
%% register/2 (which raises in a second coordinator), and nothing
%% unregisters that name: the check never runs twice at once.
%% Expected: R001 filtered (run once, by the process holding the name).
-module(coordinator_ok).
-export([start/0, stop/0, ensure_helper/0, test/0]).

start() ->
    Parent = self(),
    Pid = spawn(fun() -> init(Parent) end),
    receive
        {ready, Pid} -> Pid
    end.

init(Parent) ->
    register(?MODULE, self()),
    ensure_helper(),
    Parent ! {ready, self()},
    loop().

ensure_helper() ->
    case whereis(coordinator_ok_helper) of
%%       ^^^^^^^ R001 #1 read: registry coordinator_ok_helper, only in the coordinator (filtered)
        undefined ->
            Pid = spawn(fun helper/0),
            register(coordinator_ok_helper, Pid),
%%          ^^^^^^^^ R001 #1 write: after the coordinator's own register, run once
            Pid;
        Pid ->
            Pid
    end.

helper() ->
    receive
        stop -> ok
    end.

loop() ->
    receive
        {stop, From} ->
            coordinator_ok_helper ! stop,
            From ! {stopped, self()};
        _ ->
            loop()
    end.

stop() ->
    ?MODULE ! {stop, self()},
    receive
        {stopped, _} -> ok
    end.

test() ->
    start(),
    Up = is_pid(whereis(coordinator_ok_helper)),
    stop(),
    Up.
