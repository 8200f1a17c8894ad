%% Checks: module_info/0,1 and erlang:get_module_info/1,2 of the program's
%% own module (called remotely and locally), of a module loaded at run time
%% from forms, of OTP's library modules, of a behaviour and of erlang
%% itself: module, exports (in the compiler's order, module_info/0,1
%% included), functions, the source's attributes (vsn made from the MD5
%% when the source has none), the shape of compile and md5, native, nifs,
%% and badarg for an unknown key or module.
-module(module_info_exports).
-export([main/0, helper/2, cb/1]).
-author("someone").
-my_tag({lists, map, 2}).
-my_tag(plain).
-behaviour(gen_server).
-dialyzer({nowarn_function, helper/2}).
-record(unused, {a}).
-type t() :: integer().
-spec cb(t()) -> t().

helper(A, B) -> {A, B}.
cb(X) -> X.
private() -> ok.

reason(F) ->
    try F() of V -> {value, V} catch C:R -> {C, R} end.

own(Fs) -> [F || {N, _} = F <- Fs, hd(atom_to_list(N)) =/= $-].

loaded() ->
    Forms = [{attribute, 1, module, mi_loaded},
             {attribute, 2, export, [{get, 0}]},
             {attribute, 3, vsn, "7.1"},
             {attribute, 4, colour, blue},
             {function, 5, get, 0, [{clause, 5, [], [], [{atom, 5, ok}]}]}],
    {ok, mi_loaded, Bin} = compile:forms(Forms),
    {module, mi_loaded} = code:load_binary(mi_loaded, "mi_loaded.erl", Bin),
    {mi_loaded:module_info(exports), mi_loaded:module_info(attributes),
     mi_loaded:module_info(functions), mi_loaded:module_info(module)}.

main() ->
    M = ?MODULE,
    io:format("keys ~p~n", [[K || {K, _} <- M:module_info()]]),
    io:format("module ~p ~p~n", [M:module_info(module), module_info(module)]),
    io:format("exports ~p~n", [M:module_info(exports)]),
    io:format("same ~p~n", [M:module_info(exports) =:= proplists:get_value(exports, module_info())]),
    io:format("functions ~p~n", [own(M:module_info(functions))]),
    Attrs = M:module_info(attributes),
    io:format("attributes ~p~n", [[A || {K, _} = A <- Attrs, K =/= vsn]]),
    [{vsn, [Vsn]}] = [A || {vsn, _} = A <- Attrs],
    io:format("vsn ~p~n", [is_integer(Vsn) andalso Vsn >= 0]),
    Md5 = M:module_info(md5),
    io:format("md5 ~p~n", [is_binary(Md5) andalso byte_size(Md5) =:= 16]),
    io:format("compile ~p~n", [[K || {K, _} <- M:module_info(compile)]]),
    io:format("native ~p ~p ~p~n", [M:module_info(native), M:module_info(nifs),
                                    M:module_info(native_addresses)]),
    io:format("callbacks ~p~n", [[lists:member(F, M:module_info(exports))
                                   || F <- [{cb, 1}, {helper, 2}, {private, 0}, {init, 1}]]]),
    io:format("exported ~p~n", [[erlang:function_exported(M, module_info, A) || A <- [0, 1, 2]]]),
    io:format("get ~p~n", [erlang:get_module_info(M, exports) =:= M:module_info(exports)]),
    io:format("get1 ~p~n", [erlang:get_module_info(M) =:= M:module_info()]),
    io:format("bad key ~p~n", [reason(fun() -> M:module_info(foo) end)]),
    io:format("bad key2 ~p~n", [reason(fun() -> M:module_info("exports") end)]),
    io:format("bad module ~p~n", [reason(fun() -> erlang:get_module_info(no_such_module_here, exports) end)]),
    io:format("bad module2 ~p~n", [reason(fun() -> erlang:get_module_info(42) end)]),
    Missing = list_to_atom("no_such_" ++ "module"),
    io:format("undef ~p~n", [reason(fun() -> Missing:module_info() end)]),
    io:format("arity2 ~p~n", [reason(fun() -> M:module_info(exports, x) end)]),
    io:format("loaded ~p~n", [loaded()]),
    io:format("lists ~p ~p~n", [lists:module_info(module), lists:member({map, 2}, lists:module_info(exports))]),
    io:format("gen_server ~p~n", [lists:member({call, 2}, gen_server:module_info(exports))]),
    io:format("erlang ~p ~p~n", [erlang:module_info(module), lists:member({self, 0}, erlang:module_info(exports))]),
    io:format("private ~p~n", [private()]),
    helper(1, cb(2)).
