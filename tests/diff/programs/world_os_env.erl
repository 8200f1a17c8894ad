%% Checks: os:putenv/2, os:getenv/1,2, os:unsetenv/1 on variables the program sets (the rest of the environment is the host's on the BEAM and empty on racewit's VM, so only these are printed), os:getenv/0 lists a set variable as NAME=VALUE, and the arguments os refuses with badarg.
-module(world_os_env).
-export([main/0]).

main() ->
    Try = fun(F) -> try F() catch C:R -> {C, R} end end,
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A")]),
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A", "dflt")]),
    io:format("~p~n", [os:putenv("RACEWIT_DIFF_A", "one")]),
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A")]),
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A", "dflt")]),
    io:format("~p~n", [lists:member("RACEWIT_DIFF_A=one", os:getenv())]),
    io:format("~p~n", [os:putenv("RACEWIT_DIFF_A", "")]),
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A")]),
    io:format("~p~n", [os:unsetenv("RACEWIT_DIFF_A")]),
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_A")]),
    io:format("~p~n", [os:unsetenv("RACEWIT_DIFF_NEVER")]),
    Self = self(),
    spawn(fun() -> os:putenv("RACEWIT_DIFF_B", "from another"), Self ! done end),
    receive done -> ok end,
    io:format("~p~n", [os:getenv("RACEWIT_DIFF_B")]),
    io:format("~p~n", [[Try(fun() -> os:getenv(atom) end),
                        Try(fun() -> os:putenv("A=B", "x") end),
                        Try(fun() -> os:putenv("", "x") end),
                        Try(fun() -> os:putenv("RACEWIT_DIFF_C", x) end),
                        Try(fun() -> os:unsetenv(<<"X">>) end)]]),
    ok.
