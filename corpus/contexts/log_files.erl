%% The log files a node writes to, kept as one list in a public named ETS
%% table: add/1 reads the list, makes the file it is given and stores the
%% list with the new name in front. Two processes adding two files at once
%% both read the old list and both store it with their own file only: one
%% file is missing from the list, though it was made. Nothing in the program
%% calls add/1, so its argument is made up: the code passes it to
%% file:write_file/2 (through make/1), so it is a file name under the run's
%% own /tmp. Two adds of one name end as a serial run does (the file listed
%% once, both told {ok, Path}); with each worker's own name the lost one
%% shows.
%% Expected: R002 confirmed (non_serializable), each worker with a file of
%% its own.
-module(log_files).
-export([init/0, add/1, files/0, test/0]).

init() ->
    ets:new(log_files, [named_table, public, set]),
    ets:insert(log_files, {files, []}),
    ok.

add(Path) ->
    [{files, Files}] = ets:lookup(log_files, files),
%%                     ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 read: the list of files (confirmed, non_serializable)
    case lists:member(Path, Files) of
        true ->
            {ok, Path};
        false ->
            ok = make(Path),
            ets:insert(log_files, {files, [Path | Files]}),
%%          ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^ R002 #1 write: the other process's file is lost
            {ok, Path}
    end.

make(Path) ->
    file:write_file(Path, <<>>).

files() ->
    [{files, Files}] = ets:lookup(log_files, files),
    Files.

test() ->
    init(),
    Names = [lists:concat(["/tmp/log_files_test_", N]) || N <- [a, b]],
    Self = self(),
    [spawn(fun() -> Self ! {added, add(N)} end) || N <- Names],
    [receive {added, {ok, _}} -> ok end || _ <- Names],
    Files = files(),
    [file:delete(N) || N <- Names],
    ets:delete(log_files),
    length(Files).
