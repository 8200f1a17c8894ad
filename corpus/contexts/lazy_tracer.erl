%% A tracer server started on first use: start/1 looks the name up and, when
%% nobody holds it, spawns the server, whose init registers the name. The
%% conventional setup (calling start/0 first) would start the server before
%% the workers and hide the race, which is in the start itself: the harness
%% variant without the setup call shows two first starts at once, where the
%% second server dies at register/2 and its caller waits forever.
%% Expected: R001 confirmed (crash), the variant without its setup call.
-module(lazy_tracer).
-export([start/0, start/1, trace/1, traced/0, test/0]).

start() ->
    start([]).

start(Options) ->
    case whereis(lazy_tracer) of
%%       ^^^^^^^^^^^^^^^^^^^^^^^ R001 #1 read: name lazy_tracer (confirmed, crash)
        undefined ->
            Parent = self(),
            Pid = spawn(fun() -> init(Parent, Options) end),
            receive {Pid, started} -> {ok, Pid} end;
        Pid ->
            {ok, Pid}
    end.

init(Parent, Options) ->
    register(lazy_tracer, self()),
%%  ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R001 #1 write: the second server dies with badarg
    Parent ! {self(), started},
    loop(Options).

loop(Traced) ->
    receive
        {trace, From, What} ->
            From ! {self(), ok},
            loop([What | Traced]);
        {traced, From} ->
            From ! {self(), Traced},
            loop(Traced);
        stop ->
            ok
    end.

trace(What) ->
    {ok, Pid} = start(),
    Pid ! {trace, self(), What},
    receive {Pid, ok} -> ok end.

traced() ->
    {ok, Pid} = start(),
    Pid ! {traced, self()},
    receive {Pid, Traced} -> Traced end.

test() ->
    ok = trace(one),
    ok = trace(two),
    [two, one] = traced(),
    lazy_tracer ! stop,
    ok.
