%% racewit prelude: the parts of proc_lib that behaviours and users call.
-module(proc_lib).
-export([spawn/1, spawn/3, spawn_link/1, spawn_link/3, start/3, start/4,
         start_link/3, start_link/4, init_ack/1, init_ack/2, init_fail/2]).

spawn(F) -> Parent = self(), erlang:spawn(fun() -> put('$ancestors', [Parent]), F() end).
spawn(M, F, A) -> Parent = self(), erlang:spawn(fun() -> put('$ancestors', [Parent]), apply(M, F, A) end).
spawn_link(F) -> Parent = self(), erlang:spawn_link(fun() -> put('$ancestors', [Parent]), F() end).
spawn_link(M, F, A) -> Parent = self(), erlang:spawn_link(fun() -> put('$ancestors', [Parent]), apply(M, F, A) end).

start(M, F, A) -> start(M, F, A, infinity).
start(M, F, A, Timeout) -> sync(proc_lib:spawn(M, F, A), Timeout).
start_link(M, F, A) -> start_link(M, F, A, infinity).
start_link(M, F, A, Timeout) -> sync(proc_lib:spawn_link(M, F, A), Timeout).

sync(Pid, Timeout) ->
    MRef = erlang:monitor(process, Pid),
    receive
        {ack, Pid, Return} -> erlang:demonitor(MRef, [flush]), Return;
        {'DOWN', MRef, process, Pid, Reason} -> {error, Reason}
    after Timeout ->
        erlang:demonitor(MRef, [flush]),
        exit(Pid, kill),
        {error, timeout}
    end.

init_ack(Return) ->
    case get('$ancestors') of
        [Parent | _] -> init_ack(Parent, Return);
        _ -> ok
    end.
init_ack(Parent, Return) -> Parent ! {ack, self(), Return}, ok.
init_fail(Return, {Class, Reason}) ->
    init_ack(Return),
    erlang:raise(Class, Reason, []).
