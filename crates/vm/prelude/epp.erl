%% racewit prelude: the one function of `epp` that library code calls at
%% run time (io_lib asks for the default source encoding); preprocessing
%% files would touch the host.
-module(epp).
-export([default_encoding/0]).

default_encoding() -> utf8.
