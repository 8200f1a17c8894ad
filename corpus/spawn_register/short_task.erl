%% A one-shot warm-up task registered so that an admin can find and cancel it.
%% The task may finish (and exit) before the parent gets to register/2, which
%% then raises badarg on the dead pid.  One caller is enough: the race is
%% between the parent and the child it spawned.  Expected: R004 confirmed, crash.
-module(short_task).
-export([start_warmup/1, cancel/0, test/0]).

start_warmup(Keys) when is_list(Keys) ->
    Pid = spawn(fun() -> warm(Keys) end),
%%        ^^^^^ R004 #1 read: spawn of a process that can exit at once (confirmed, crash)
    register(cache_warmup, Pid),
%%  ^^^^^^^^ R004 #1 write: badarg when the warm-up already finished
    {ok, Pid}.

cancel() ->
    case whereis(cache_warmup) of
        undefined -> not_running;
        Pid -> exit(Pid, kill), cancelled
    end.

warm(Keys) ->
    lists:foreach(fun(K) -> erlang:put({warm, K}, true) end, Keys).

test() ->
    Self = self(),
    Pid = spawn(fun() -> Self ! {self(), catch start_warmup([a, b, c])} end),
    receive
        {Pid, {ok, _}} -> started;
        {Pid, {'EXIT', {badarg, _}}} -> lost_race
    after 1000 -> timeout
    end.
