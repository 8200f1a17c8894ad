%% The registry half of the svc_sup / svc_starter pair: reads and writes the
%% registered name of a service.  The race is reported against svc_sup:ensure/1,
%% which calls is_running/1 and then launch/1 (see svc_sup.erl).
%% Expected: R001 confirmed, crash, bound 1 (one suspect spanning both files).
-module(svc_starter).
-export([is_running/1, launch/1, shutdown/1, test/0]).

is_running(Service) ->
    case whereis(Service) of
%%       ^^^^^^^ R001 #1 #2 read: registry <Service>, reached from svc_sup:ensure/1 (#1) and test/0 (#2)
        undefined -> false;
        Pid -> {true, Pid}
    end.

launch(Service) ->
    Pid = spawn(fun() -> service_loop(Service, 0) end),
    try register(Service, Pid) of
%%      ^^^^^^^^ R001 #1 #2 write: raises badarg; the exit below turns it into a crash
        true -> {ok, Pid}
    catch
        error:badarg ->
            exit(Pid, kill),
            exit({already_started, Service})
    end.

shutdown(Service) ->
    case whereis(Service) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

service_loop(Service, Handled) ->
    receive
        {request, From, Ref, _Req} ->
            From ! {Ref, {Service, Handled}},
            service_loop(Service, Handled + 1);
        stop ->
            ok
    end.

test() ->
    false = is_running(svc_probe),
    {ok, Pid} = launch(svc_probe),
    {true, Pid} = is_running(svc_probe),
    shutdown(svc_probe).
