%% Checks: the code server model on what is host-independent: ensure_loaded/is_loaded/which of missing modules, preloaded modules, priv_dir of an unknown application, objfile_extension.
-module(world_code_server).
-export([main/0]).
main() ->
    io:format("~p~n", [code:ensure_loaded(lists)]),
    io:format("~p~n", [code:ensure_loaded(no_such_module_here)]),
    io:format("~p ~p~n", [code:is_loaded(no_such_module_here), code:which(no_such_module_here)]),
    io:format("~p ~p~n", [code:is_loaded(erlang), code:which(erlang)]),
    io:format("~p ~p~n", [code:priv_dir(no_such_app), code:lib_dir(no_such_app)]),
    io:format("~p~n", [code:objfile_extension()]),
    io:format("~p~n", [element(1, code:is_loaded(?MODULE))]),
    io:format("~p~n", [code:ensure_loaded(?MODULE)]),
    io:format("~p ~p~n", [erlang:module_loaded(lists), erlang:module_loaded(no_such_module_here)]),
    io:format("~p~n", [erlang:function_exported(lists, map, 2)]),
    ok.
