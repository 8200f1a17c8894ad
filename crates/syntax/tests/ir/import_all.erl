-module(import_all).
-compile(export_all).
-import(lists, [foldl/3]).
-import(proplists, [get_value/2]).

sum(L) -> foldl(fun(X, Acc) -> X + Acc end, 0, L).
opt(K, L) -> get_value(K, L).
