%% Checks: OTP's filename edge cases: double slashes, trailing dots, extension of dotfiles in directories, join of empty parts.
-module(filename_edge_cases).
-export([main/0]).
main() ->
    io:format("~p~n", [filename:join(["a//b", "c"])]),
    io:format("~p~n", [filename:split("//a//b/")]),
    io:format("~p~n", [filename:extension("dir.x/.profile")]),
    io:format("~p~n", [filename:rootname("dir.x/file")]),
    io:format("~p~n", [filename:basename("a/b/..")]),
    io:format("~p~n", [filename:dirname("file")]),
    io:format("~p~n", [filename:join("a", "")]),
    io:format("~p~n", [filename:absname_join("/x", "../y")]),
    ok.
