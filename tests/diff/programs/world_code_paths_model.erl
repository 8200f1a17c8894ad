%% Checks: code server answers that do not depend on the install: lib_dir/2 and priv_dir of an unknown app, ensure_modules_loaded, is_sticky, module_status of missing modules.
-module(world_code_paths_model).
-export([main/0]).
main() ->
    io:format("~p~n", [code:lib_dir(nope_app, priv)]),
    %% The BEAM loads the modules in parallel: the failures come in either
    %% order, so they are sorted.
    io:format("~p~n", [case code:ensure_modules_loaded([lists, nope_mod_a, nope_mod_b]) of
                           {error, Failed} -> {error, lists:sort(Failed)};
                           Other -> Other
                       end]),
    io:format("~p~n", [code:ensure_modules_loaded([lists, maps])]),
    io:format("~p~n", [code:which(nope_mod_c)]),
    io:format("~p~n", [code:is_loaded(nope_mod_c)]),
    io:format("~p~n", [erlang:function_exported(nope_mod_c, f, 0)]),
    ok.
