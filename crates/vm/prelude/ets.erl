%% racewit prelude: the ets functions OTP itself writes in Erlang.
-module(ets).
-export([foldl/3, foldr/3]).

foldl(F, Acc, T) -> lists:foldl(F, Acc, ets:tab2list(T)).
foldr(F, Acc, T) -> lists:foldr(F, Acc, ets:tab2list(T)).
