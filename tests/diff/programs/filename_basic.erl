%% Checks: OTP's filename from source: basename/dirname/extension/rootname, with and without extensions given.
-module(filename_basic).
-export([main/0]).
main() ->
    io:format("~p~n", [[filename:basename(P) || P <- ["/a/b/c.erl", "c.erl", "/a/b/", "/"]]]),
    io:format("~p~n", [filename:basename("src/x.erl", ".erl")]),
    io:format("~p~n", [[filename:dirname(P) || P <- ["/a/b/c", "c", "/a", "a/b/"]]]),
    io:format("~p~n", [[filename:extension(P) || P <- ["a.tar.gz", "noext", ".hidden", "dir.d/file"]]]),
    io:format("~p~n", [[filename:rootname(P) || P <- ["a.tar.gz", "x/y.erl", "z"]]]),
    io:format("~p~n", [filename:rootname("a.erl", ".beam")]),
    io:format("~p~n", [filename:basename(<<"/bin/path.txt">>)]),
    ok.
