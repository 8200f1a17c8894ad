%% Check-then-register done defensively: when register/2 loses the race the
%% badarg is caught, the spare process is stopped and the winner is returned.
%% The interleaving exists, but the losing register changes nothing and the
%% program handles it.  Expected: R001 unconfirmed (handled, no consequence).
-module(catch_register_ok).
-export([ensure/0, ping/0, test/0]).

-define(NAME, metrics_sink).

ensure() ->
    case whereis(?NAME) of
%%       ^^^^^^^ R001 #1 read: registry metrics_sink (unconfirmed: the losing register is handled)
        undefined ->
            Pid = spawn(fun() -> sink_loop(0) end),
            try register(?NAME, Pid) of
%%              ^^^^^^^^ R001 #1 write: badarg is caught below and the winner used
                true -> Pid
            catch
                error:badarg ->
                    Pid ! stop,
                    ensure()
            end;
        Pid ->
            Pid
    end.

ping() ->
    Ref = make_ref(),
    ensure() ! {ping, self(), Ref},
    receive
        {Ref, N} -> N
    after 1000 -> timeout
    end.

sink_loop(N) ->
    receive
        {ping, From, Ref} -> From ! {Ref, N + 1}, sink_loop(N + 1);
        stop -> ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), ping()} end) || _ <- [1, 2]],
    Counts = lists:sort([receive {P, R} -> R end || P <- Pids]),
    ?NAME ! stop,
    Counts.
