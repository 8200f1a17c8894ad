%% A logger process created on first use.  The caller checks the registry and,
%% when the name is free, spawns a logger that registers itself.  The check and
%% the registration are in different processes, so two first callers start two
%% loggers and the second one dies with badarg; the caller monitors its logger
%% and, when it dies, goes on with the one that won: the program handles the
%% death.  Expected: R001 confirmed, none (no crash the program suffers).
-module(lazy_logger).
-export([log/2, flush/0, test/0]).

-define(NAME, lazy_logger).

log(Level, Msg) ->
    ensure_logger() ! {log, Level, Msg},
    ok.

flush() ->
    Ref = make_ref(),
    ensure_logger() ! {flush, self(), Ref},
    receive
        {Ref, Lines} -> Lines
    after 1000 -> []
    end.

ensure_logger() ->
    case whereis(?NAME) of
%%       ^^^^^^^ R001 #1 read: registry lazy_logger (confirmed, none)
        undefined ->
            Parent = self(),
            Ref = make_ref(),
            Pid = spawn(fun() ->
                                register(?NAME, self()),
%%                              ^^^^^^^^ R001 #1 write: the second logger crashes with badarg
                                Parent ! {Ref, ready},
                                logger_loop([])
                        end),
            MRef = monitor(process, Pid),
            receive
                {Ref, ready} -> ok;
                {'DOWN', MRef, process, Pid, _} -> ok
            end,
            demonitor(MRef, [flush]),
            ?NAME;
        _Pid ->
            ?NAME
    end.

logger_loop(Lines) ->
    receive
        {log, Level, Msg} ->
            logger_loop([{Level, Msg} | Lines]);
        {flush, From, Ref} ->
            From ! {Ref, lists:reverse(Lines)},
            logger_loop([]);
        stop ->
            ok
    end.

test() ->
    Self = self(),
    Pids = [spawn(fun() -> Self ! {self(), catch log(info, N)} end) || N <- [1, 2]],
    [receive {P, _} -> ok end || P <- Pids],
    timer:sleep(20),
    Lines = flush(),
    catch ?NAME ! stop,
    length(Lines).
