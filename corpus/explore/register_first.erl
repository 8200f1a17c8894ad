%% An audit logger registers its name after opening its buffer, while a
%% client started at the same time sends to the name straight away.  If the
%% client runs first, `audit_log ! Msg` raises badarg: a race on who goes
%% first, with no read of the registry.  Expected: explore crash.
-module(register_first).
-export([start_logger/0, log/1, test/0]).

start_logger() ->
    spawn(fun() ->
                  Buffer = queue:new(),
                  register(audit_log, self()),
                  logger_loop(Buffer)
          end).

logger_loop(Buffer) ->
    receive
        {log, Entry} ->
            logger_loop(queue:in(Entry, Buffer));
        {stop, From} ->
            From ! {logged, queue:len(Buffer)}
    end.

log(Entry) ->
    audit_log ! {log, Entry},
    ok.

test() ->
    Logger = start_logger(),
    {Client, Ref} = spawn_monitor(fun() -> log({login, alice}) end),
    Result = receive
                 {'DOWN', Ref, process, Client, normal} -> ok;
                 {'DOWN', Ref, process, Client, Reason} -> {client_crashed, element(1, Reason)}
             end,
    Logger ! {stop, self()},
    Logged = receive {logged, N} -> N end,
    {Result, Logged}.
