%% Checks: the application environment on a node where no application
%% defines the keys: get_env/2,3 before and after set_env/3,4, unset_env,
%% get_all_env/1 (sorted, as its order is unspecified); get_env/1 and
%% get_application/0 outside any application; an unset OS variable and an
%% emulator flag not given; the object file extension (init's and code's).
-module(node_env).
-export([main/0]).

main() ->
    A = application:get_env(racewit_demo, port),
    B = application:get_env(racewit_demo, port, 8080),
    ok = application:set_env(racewit_demo, port, 9090),
    ok = application:set_env(racewit_demo, host, "localhost", [{persistent, true}]),
    C = application:get_env(racewit_demo, port),
    D = application:get_env(racewit_demo, port, 8080),
    E = lists:sort(application:get_all_env(racewit_demo)),
    Self = self(),
    spawn(fun() -> Self ! {seen, application:get_env(racewit_demo, host)} end),
    F = receive {seen, X} -> X end,
    ok = application:unset_env(racewit_demo, port),
    G = application:get_env(racewit_demo, port),
    H = application:get_env(port),
    I = application:get_application(),
    J = os:getenv("RACEWIT_SURELY_UNSET_VARIABLE"),
    K = os:getenv("RACEWIT_SURELY_UNSET_VARIABLE", "dflt"),
    L = init:get_argument(racewit_no_such_flag),
    M = {init:objfile_extension(), code:objfile_extension()},
    {A, B, C, D, E, F, G, H, I, J, K, L, M}.
