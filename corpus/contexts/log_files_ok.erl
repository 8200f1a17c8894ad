%% The twin of log_files: the log files a node writes to, one list in a
%% public named table, and add/1 takes a file name as log_files' does; but
%% every add holds a lock file while it reads and stores the list. The lock
%% is taken by making the file exclusively (only one process can make it)
%% and given back by deleting it; an add that finds it taken waits and tries
%% again. Two adds of two names at once run one after the other: no file is
%% lost, whatever the order.
%% Expected: R002 unconfirmed: no interleaving loses a file.
-module(log_files_ok).
-export([init/0, add/1, files/0, test/0]).

-define(LOCK, "/tmp/log_files_ok.lock").

init() ->
    ets:new(log_files_ok, [named_table, public, set]),
    ets:insert(log_files_ok, {files, []}),
    ok.

add(Path) ->
    lock(),
    [{files, Files}] = ets:lookup(log_files_ok, files),
%%                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the list of files (under the lock file)
    Result =
        case lists:member(Path, Files) of
            true ->
                {ok, Path};
            false ->
                ok = make(Path),
                ets:insert(log_files_ok, {files, [Path | Files]}),
%%              ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: no other add runs until the lock file is deleted
                {ok, Path}
        end,
    ok = file:delete(?LOCK),
    Result.

lock() ->
    case file:open(?LOCK, [write, exclusive]) of
        {ok, Fd} ->
            ok = file:close(Fd);
        {error, eexist} ->
            receive after 10 -> lock() end
    end.

make(Path) ->
    file:write_file(Path, <<>>).

files() ->
    [{files, Files}] = ets:lookup(log_files_ok, files),
    Files.

test() ->
    init(),
    Names = [lists:concat(["/tmp/log_files_ok_test_", N]) || N <- [a, b]],
    Self = self(),
    [spawn(fun() -> Self ! {added, add(N)} end) || N <- Names],
    [receive {added, {ok, _}} -> ok end || _ <- Names],
    Files = files(),
    [file:delete(N) || N <- Names],
    ets:delete(log_files_ok),
    length(Files).
