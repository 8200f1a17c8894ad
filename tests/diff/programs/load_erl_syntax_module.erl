%% Checks: a module built at run time with erl_syntax (mochiglobal's way:
%% a getter returning erl_syntax:abstract/1 of a term), compiled with
%% compile:forms/2 and loaded with code:load_binary/3; reloading it,
%% function_exported/3, is_loaded/1 and which/1 before and after, purge
%% and delete.
-module(load_erl_syntax_module).
-export([main/0]).

key_module(K) -> list_to_atom("mochiglobal:" ++ atom_to_list(K)).

forms(Module, T) ->
    [erl_syntax:revert(X)
     || X <- [erl_syntax:attribute(erl_syntax:atom(module), [erl_syntax:atom(Module)]),
              erl_syntax:attribute(
                erl_syntax:atom(export),
                [erl_syntax:list([erl_syntax:arity_qualifier(erl_syntax:atom(term),
                                                             erl_syntax:integer(0))])]),
              erl_syntax:function(erl_syntax:atom(term),
                                  [erl_syntax:clause([], none, [erl_syntax:abstract(T)])])]].

put_term(K, V) ->
    Mod = key_module(K),
    {ok, Mod, Bin} = compile:forms(forms(Mod, V), [verbose, report_errors]),
    code:purge(Mod),
    {module, Mod} = code:load_binary(Mod, atom_to_list(Mod) ++ ".erl", Bin),
    ok.

get_term(K, Default) ->
    Mod = key_module(K),
    try Mod:term()
    catch error:undef -> Default
    end.

main() ->
    M = key_module(k),
    io:format("before: ~p ~p ~p~n",
              [get_term(k, none), erlang:function_exported(M, term, 0), code:is_loaded(M)]),
    Value = {a, [1, 2.5, -3, "str", <<"bin", 0, 255>>], #{x => 'Quoted atom', y => [$a | b]},
             12345678901234567890, 'a b'},
    ok = put_term(k, Value),
    io:format("after put: ~p~n", [get_term(k, none)]),
    io:format("exported: ~p ~p~n",
              [erlang:function_exported(M, term, 0), erlang:function_exported(M, term, 1)]),
    io:format("loaded: ~p ~p~n", [code:is_loaded(M), code:which(M)]),
    io:format("old code: ~p~n", [erlang:check_old_code(M)]),
    ok = put_term(k, second),
    io:format("after reload: ~p, old code: ~p~n", [get_term(k, none), erlang:check_old_code(M)]),
    io:format("delete with old code: ~p~n", [code:delete(M)]),
    io:format("purge: ~p ~p~n", [code:purge(M), erlang:check_old_code(M)]),
    io:format("delete: ~p ~p~n", [code:delete(M), get_term(k, none)]),
    io:format("gone: ~p ~p ~p~n",
              [erlang:function_exported(M, term, 0), code:is_loaded(M), code:which(M)]),
    io:format("delete again: ~p, soft purge: ~p ~p~n",
              [code:delete(M), code:soft_purge(M), code:soft_purge(M)]),
    ok = put_term(k, third),
    get_term(k, none).
