%% Checks: sticky directories as `erl` starts with them (kernel, stdlib
%% and the preloaded modules; compiler is not), stick_dir/unstick_dir of an ebin
%% directory and of one that does not exist, and load_file of a sticky module.
-module(world_code_sticky).
-export([main/0]).
main() ->
    Stdlib = filename:join(code:lib_dir(stdlib), "ebin"),
    A = [code:is_sticky(M) || M <- [lists, gen_server, erlang, compile, world_code_sticky, no_such_module_here]],
    B = {code:load_file(lists), code:unstick_dir(Stdlib), code:is_sticky(lists),
         code:load_file(lists), code:stick_dir(Stdlib), code:is_sticky(lists)},
    C = {code:unstick_dir("/no/such/dir/here"), code:stick_dir("/no/such/dir/here")},
    D = {code:unstick_dir(Stdlib ++ "/"), code:is_sticky(lists)},
    io:format("~p~n~p~n~p~n~p~n", [A, B, C, D]),
    ok.
