%% racewit prelude: the ets functions OTP itself writes in Erlang.
-module(ets).
-export([foldl/3, foldr/3, match_spec_run/2, test_ms/2]).

foldl(F, Acc, T) -> lists:foldl(F, Acc, ets:tab2list(T)).
foldr(F, Acc, T) -> lists:foldr(F, Acc, ets:tab2list(T)).

%% The results of the objects a compiled match specification matches, in
%% the objects' order.
match_spec_run(Objects, Compiled) ->
    lists:reverse(ets:match_spec_run_r(Objects, Compiled, [])).

%% A match specification tried on one object: `{ok, Result}' (`false' when
%% it does not match) or `{error, Errors}'.
test_ms(Object, Spec) ->
    case erlang:match_spec_test(Object, Spec, table) of
        {ok, Result, _Flags, _Warnings} -> {ok, Result};
        {error, _} = Error -> Error
    end.
