%% A parallel map with a proper handshake: every worker is monitored and
%% replies tagged with its own pid; the parent collects the replies selectively,
%% in order (a worker crash would become an error value).  Whatever the
%% arrival order, every process finishes normally.  Expected: explore ok.
-module(handshake_ok).
-export([pmap/2, test/0]).

pmap(F, Items) ->
    Parent = self(),
    Workers = [spawn_monitor(fun() -> Parent ! {self(), {result, F(I)}} end)
               || I <- Items],
    [collect(Pid, Ref) || {Pid, Ref} <- Workers].

collect(Pid, Ref) ->
    receive
        {Pid, {result, R}} ->
            demonitor(Ref, [flush]),
            {ok, R};
        {'DOWN', Ref, process, Pid, Reason} ->
            {error, Reason}
    end.

test() ->
    Results = pmap(fun(X) -> 12 div X end, [1, 2, 3]),
    [{ok, 12}, {ok, 6}, {ok, 4}] = Results,
    ok.
