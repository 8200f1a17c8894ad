%% racewit prelude: the ets functions OTP itself writes in Erlang.
-module(ets).
-export([foldl/3, foldr/3, match_spec_run/2, test_ms/2, table/1, table/2]).

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

%% A query handle for the table (qlc): traversed by first/next (the
%% default), last/prev, or select with the query's match specification
%% or a given one, with the table fixed meanwhile; keys looked up with
%% lookup/2 when the traversal allows it.
table(T) -> table(T, []).

table(T, Opts) ->
    case table_options(Opts, first_next, []) of
        badarg -> erlang:error(badarg, [T, Opts]);
        {Traverse, QlcOpts} ->
            TF = case Traverse of
                     first_next -> fun() -> next_objects(T, ets:first(T)) end;
                     last_prev -> fun() -> prev_objects(T, ets:last(T)) end;
                     select -> fun(MS) -> ets:select(T, MS) end;
                     {select, MS} -> fun() -> ets:select(T, MS) end
                 end,
            Lookup = case Traverse of
                         {select, _} -> undefined;
                         _ -> fun(_Pos, Ks) -> lists:flatmap(fun(K) -> ets:lookup(T, K) end, Ks) end
                     end,
            KeyEquality = case ets:info(T, type) of
                              ordered_set -> '==';
                              _ -> '=:='
                          end,
            qlc:table(TF, [{pre_fun, fun(_) -> ets:safe_fixtable(T, true) end},
                           {post_fun, fun() -> ets:safe_fixtable(T, false) end},
                           {info_fun, fun(Tag) -> table_info(T, Tag) end},
                           {key_equality, KeyEquality},
                           {lookup_fun, Lookup} | QlcOpts])
    end.

table_options(Opt, Traverse, Qlc) when not is_list(Opt) ->
    table_options([Opt], Traverse, Qlc);
table_options([], Traverse, Qlc) -> {Traverse, lists:reverse(Qlc)};
table_options([{traverse, T} | Opts], _, Qlc)
  when T =:= first_next; T =:= last_prev; T =:= select ->
    table_options(Opts, T, Qlc);
table_options([{traverse, {select, MS}} | Opts], _, Qlc) ->
    table_options(Opts, {select, MS}, Qlc);
table_options([{n_objects, N} | Opts], T, Qlc)
  when N =:= default; is_integer(N), N > 0 ->
    table_options(Opts, T, Qlc);
table_options([{K, _} = O | Opts], T, Qlc) when K =/= traverse, K =/= n_objects ->
    table_options(Opts, T, [O | Qlc]);
table_options(_, _, _) -> badarg.

next_objects(_T, '$end_of_table') -> [];
next_objects(T, K) -> ets:lookup(T, K) ++ fun() -> next_objects(T, ets:next(T, K)) end.

prev_objects(_T, '$end_of_table') -> [];
prev_objects(T, K) -> ets:lookup(T, K) ++ fun() -> prev_objects(T, ets:prev(T, K)) end.

table_info(T, num_of_objects) -> ets:info(T, size);
table_info(T, keypos) -> ets:info(T, keypos);
table_info(T, is_unique_objects) -> ets:info(T, type) =/= duplicate_bag;
table_info(T, is_sorted_key) -> ets:info(T, type) =:= ordered_set;
table_info(_T, _) -> undefined.
