%% Checks: OTP's filename: join/1,2 (with absolute and dot parts), split, flatten, absname/2 (no cwd), pathtype, nativename.
-module(filename_join_split).
-export([main/0]).
main() ->
    io:format("~p~n", [filename:join(["a", "b", "c.txt"])]),
    io:format("~p~n", [filename:join("a/", "/b")]),
    io:format("~p~n", [filename:join(["/x", "./y", "z/"])]),
    io:format("~p~n", [filename:split("/usr/local/bin")]),
    io:format("~p~n", [filename:split("rel/path/")]),
    io:format("~p~n", [filename:flatten(["a", [$/, "b"], c])]),
    io:format("~p~n", [filename:absname("x/y", "/base")]),
    io:format("~p~n", [[filename:pathtype(P) || P <- ["/a", "a", "~/x"]]]),
    io:format("~p~n", [filename:join(<<"a">>, "b")]),
    ok.
