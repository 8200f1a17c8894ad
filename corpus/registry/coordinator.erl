%% The twin of coordinator_ok: the coordinator catches the failure of its
%% own register/2 and goes on, so a second coordinator started meanwhile
%% also runs ensure_helper/0; both see no helper, and the second
%% register/2 of the helper's name raises badarg.
%% Expected: R001 confirmed (crash).
-module(coordinator).
-export([start/0, stop/0, ensure_helper/0, test/0]).

start() ->
    Parent = self(),
    Pid = spawn(fun() -> init(Parent) end),
    receive
        {ready, Pid} -> Pid
    end.

init(Parent) ->
    catch register(?MODULE, self()),
    ensure_helper(),
    Parent ! {ready, self()},
    loop().

ensure_helper() ->
    case whereis(coordinator_helper) of
%%       ^^^^^^^ R001 #1 read: registry coordinator_helper, two coordinators (confirmed, crash)
        undefined ->
            Pid = spawn(fun helper/0),
            register(coordinator_helper, Pid),
%%          ^^^^^^^^ R001 #1 write: the second coordinator's register raises badarg
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
            coordinator_helper ! stop,
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
    Up = is_pid(whereis(coordinator_helper)),
    stop(),
    Up.
