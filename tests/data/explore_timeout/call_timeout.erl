%% A correct gen_server call with a timeout: the server always answers, so
%% the call times out only if a timeout may fire while the server can still
%% run (racewit explore --after-timeout always).
-module(call_timeout).
-behaviour(gen_server).
-export([test/0, sleepy/0]).
-export([init/1, handle_call/3, handle_cast/2]).

test() ->
    {ok, Pid} = gen_server:start_link(?MODULE, [], []),
    pong = gen_server:call(Pid, ping, 5000),
    ok = gen_server:stop(Pid).

%% Waits for nothing but its own timeout: only a policy under which that
%% timeout never fires leaves it stuck.
sleepy() ->
    receive
        wake -> woken
    after 100 -> slept
    end.

init([]) -> {ok, #{}}.

handle_call(ping, _From, S) -> {reply, pong, S}.

handle_cast(_Msg, S) -> {noreply, S}.
