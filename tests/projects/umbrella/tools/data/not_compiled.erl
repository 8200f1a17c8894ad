%% tools/ is not recursive: rebar3 never compiles this file, nor does racewit.
-module(not_compiled
