%% A tiny name server started lazily by whichever client needs it first.
%% ensure_started/0 checks the registry and registers a fresh server when the
%% name is free: two clients can both see `undefined` and the second
%% register/2 raises badarg.  Expected: R001 confirmed, crash, bound 1.
-module(name_server).
-export([ensure_started/0, add/2, resolve/1, stop/0, test/0]).

-define(SERVER, name_server).

ensure_started() ->
    case whereis(?SERVER) of
%%       ^^^^^^^ R001 #1 read: registry name_server (confirmed, crash)
        undefined ->
            Pid = spawn(fun() -> loop(#{}) end),
            register(?SERVER, Pid),
%%          ^^^^^^^^ R001 #1 write: second caller gets badarg
            Pid;
        Pid ->
            Pid
    end.

add(Name, Addr) ->
    ensure_started() ! {add, Name, Addr},
    ok.

resolve(Name) ->
    Ref = make_ref(),
    ensure_started() ! {resolve, self(), Ref, Name},
    receive
        {Ref, Reply} -> Reply
    after 1000 -> timeout
    end.

stop() ->
    case whereis(?SERVER) of
        undefined -> ok;
        Pid -> Pid ! stop, ok
    end.

loop(Table) ->
    receive
        {add, Name, Addr} ->
            loop(Table#{Name => Addr});
        {resolve, From, Ref, Name} ->
            From ! {Ref, maps:find(Name, Table)},
            loop(Table);
        stop ->
            ok
    end.

test() ->
    Self = self(),
    Clients = [spawn(fun() -> Self ! {done, self(), catch add(host, {127, 0, 0, 1})} end)
               || _ <- [1, 2]],
    [receive {done, C, _} -> ok end || C <- Clients],
    Reply = resolve(host),
    stop(),
    Reply.
