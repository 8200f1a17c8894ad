%% Generated code keeps the positions of its template with -file.
-module(renumbered).
-export([ensure/0]).
-file("template.erl", 100).
ensure() ->
    case whereis(svc) of
        undefined -> register(svc, spawn(fun() -> receive stop -> ok end end));
        _ -> ok
    end.
