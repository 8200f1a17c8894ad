%% Two whereis -> register pairs; the team accepted the first one in code,
%% in both spellings checkers know.
-module(in_code).
-export([start_a/0, start_b/0, start_c/0]).
-racewit({nowarn, [start_a/0]}).
-dialyzer({nowarn_function, start_b/0}).

start_a() ->
    case whereis(a_server) of
        undefined -> register(a_server, spawn(fun loop/0));
        _ -> ok
    end.

start_b() ->
    case whereis(b_server) of
        undefined -> register(b_server, spawn(fun loop/0));
        _ -> ok
    end.

start_c() ->
    case whereis(c_server) of
        undefined -> register(c_server, spawn(fun loop/0));
        _ -> ok
    end.

loop() -> receive stop -> ok end.
