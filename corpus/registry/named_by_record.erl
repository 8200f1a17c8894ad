%% Services started on demand under the name kept in their #svc{} record:
%% ensure/1 looks the name up and registers a new process when it is free.
%% The name reaches whereis/1 and register/2 through a record field.
%% Expected: R001 confirmed, crash (the second register raises badarg).
-module(named_by_record).
-export([ensure/1, test/0]).

-record(svc, {name, opts = []}).

ensure(#svc{name = Name}) ->
    case whereis(Name) of
%%       ^^^^^^^ R001 #1 read: registry <Name>, a record field (confirmed, crash)
        undefined ->
            Pid = spawn(fun loop/0),
            register(Name, Pid),
%%          ^^^^^^^^ R001 #1 write: a second ensure/1 finds the name taken
            Pid;
        Pid ->
            Pid
    end.

loop() ->
    receive stop -> ok end.

test() ->
    Self = self(),
    Svc = #svc{name = mailer},
    Pids = [spawn(fun() -> Self ! {self(), catch ensure(Svc)} end) || _ <- [1, 2]],
    R = [receive {P, X} -> X end || P <- Pids],
    [P ! stop || P <- R, is_pid(P)],
    length(R).
