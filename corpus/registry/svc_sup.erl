%% A minimal supervisor for named services; the registry work is delegated to
%% svc_starter (the other module of this pair).  ensure/1 asks svc_starter
%% whether the service runs, then asks it to launch: the read is in one module,
%% the write in the other.  Expected: R001 confirmed, crash, bound 1.
-module(svc_sup).
-export([ensure/1, ensure_all/1, test/0]).

ensure(Service) ->
    case svc_starter:is_running(Service) of
        false ->
            {ok, Pid} = svc_starter:launch(Service),
            Pid;
        {true, Pid} ->
            Pid
    end.

ensure_all(Services) ->
    [{S, ensure(S)} || S <- Services].

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch ensure(svc_mailer)} end) || _ <- [1, 2]],
    Results = [receive {P, R} -> is_pid(R) end || P <- Pids],
    svc_starter:shutdown(svc_mailer),
    Results.
