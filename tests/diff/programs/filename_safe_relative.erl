%% Checks: OTP's filename: safe_relative_path, find_src-free helpers: basedir-free pure work (dirname of binaries, join of atoms).
-module(filename_safe_relative).
-export([main/0]).
main() ->
    io:format("~p~n", [[filename:safe_relative_path(P) || P <- ["a/b", "a/../b", "../x", "/abs", "a/./b"]]]),
    io:format("~p~n", [filename:dirname(<<"/a/b/c">>)]),
    io:format("~p~n", [filename:join([a, b, "c"])]),
    io:format("~p~n", [filename:rootname(<<"x.erl">>)]),
    io:format("~p~n", [filename:extension(<<"y.beam">>)]),
    ok.
