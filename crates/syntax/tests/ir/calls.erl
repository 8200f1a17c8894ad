-module(calls).
-export([local/1, remote/2, dynamic/3, bifs/1, override/1]).
-import(lists, [reverse/1, map/2]).
-compile({no_auto_import, [size/1]}).

local(X) -> helper(X, 1).
helper(X, Y) -> {X, Y}.
remote(M, X) -> {lists:sum(X), M:start(X), lists:F(X), M:F(), ets:lookup(tab, X)}.
dynamic(F, G, X) -> {F(X), (G)(X, X), (fun(Y) -> Y end)(X), apply(F, [X]), erlang:apply(calls, local, [X])}.
bifs(X) -> {self(), whereis(X), register(X, self()), element(1, X), length(X), reverse(X), map(fun id/1, X), spawn(fun() -> X end)}.
override(X) -> size(X).
size(X) -> {my_size, X}.
id(X) -> X.
