%% racewit prelude: `file` as a module, so a function of it that racewit
%% does not model parks its caller for the host. What it models are BIFs
%% (bif/files.rs, over the run-local files of files.rs): get_cwd/0, open/2,
%% close/1, write/2, read/2, read_line/1, position/2, sync/1, datasync/1,
%% read_file/1, write_file/2,3, read_file_info/1,2, read_link_info/1,2,
%% make_dir/1, del_dir/1, del_dir_r/1, delete/1, rename/2, list_dir/1;
%% native_name_encoding/0 is a BIF of bif/erlang.rs.
-module(file).
-export([]).
