%% A log sink whose start makes its log directory and opens its file for
%% appending (raw), reading the file's size back, as a file backend does,
%% before it counts lines in ETS. log/1 appends the line and then puts back
%% the count it read: two loggers at once lose a count, and the count no
%% longer matches the lines in the file.
%% Expected: R002 confirmed; the start-up's file calls run on the run's own
%% files (under /tmp), so the search gets past them to the race.
-module(log_sink_lines).
-export([start/0, log/1, lines/0, test/0]).

-define(DIR, "/tmp/log_sink_lines").
-define(LOG, ?DIR "/sink.log").

start() ->
    case file:make_dir(?DIR) of
        ok -> ok;
        {error, eexist} -> ok
    end,
    {ok, Fd} = file:open(?LOG, [append, raw]),
    {ok, Info} = file:read_file_info(?LOG),
    Size = element(2, Info),
    ok = file:close(Fd),
    ets:new(sink, [named_table, public]),
    ets:insert(sink, {lines, Size div 4}),
    ok.

log(Line) ->
    [{lines, N}] = ets:lookup(sink, lines),
%%                 ^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the count before the line is written
    ok = file:write_file(?LOG, [Line, $\n], [append]),
    ets:insert(sink, {lines, N + 1}),
%%  ^^^^^^^^^^ R002 #1 write: puts back a count another logger has moved
    ok.

lines() ->
    [{lines, N}] = ets:lookup(sink, lines),
    {ok, Bin} = file:read_file(?LOG),
    {N, length(binary:split(Bin, <<"\n">>, [global, trim_all]))}.

test() ->
    _ = file:del_dir_r(?DIR),
    ok = start(),
    Self = self(),
    Ps = [spawn(fun() -> Self ! {self(), log(L)} end) || L <- ["one", "two"]],
    [receive {P, ok} -> ok end || P <- Ps],
    Counts = lines(),
    ets:delete(sink),
    Counts.
