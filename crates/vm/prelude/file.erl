%% racewit prelude: the little of `file` that touches no file. The working
%% directory is the one racewit runs in (the loader hands it in through
%% `racewit_apps:cwd/0`); `native_name_encoding/0` is a BIF (bif/erlang.rs);
%% every other function of `file` would touch the host and parks the caller.
-module(file).
-export([get_cwd/0]).

get_cwd() -> {ok, racewit_apps:cwd()}.
