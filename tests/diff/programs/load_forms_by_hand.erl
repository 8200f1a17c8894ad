%% Checks: compile:forms/2 on hand-written abstract format (every
%% expression form racewit writes out: records, maps, binaries, funs,
%% comprehensions, try/catch/after, receive/after, guards, operators),
%% then code:load_binary/3 and calls into the new module; errors for bad
%% forms.
-module(load_forms_by_hand).
-export([main/0]).

v(N) -> {var, 1, N}.
a(X) -> {atom, 1, X}.
i(X) -> {integer, 1, X}.
call(M, F, As) -> {call, 1, {remote, 1, a(M), a(F)}, As}.
clause(Ps, Gs, B) -> {clause, 1, Ps, Gs, B}.
fn(Name, Clauses) -> {function, 1, Name, length(element(3, hd(Clauses))), Clauses}.

forms() ->
    [{attribute, 1, file, {"gen.erl", 1}},
     {attribute, 1, module, gen_by_hand},
     {attribute, 1, export, [{classify, 1}, {records, 0}, {bins, 1}, {funs, 0}, {comp, 1},
                             {tries, 1}, {recv, 0}, {maps, 1}]},
     {attribute, 2, record, {pt, [{record_field, 2, a(x), i(0)},
                                  {typed_record_field, {record_field, 2, a(y)},
                                   {type, 2, integer, []}}]}},
     {attribute, 3, type, {t, {type, 3, integer, []}, []}},
     %% classify(X) when is_integer(X), X > 10; X =:= big -> big; ...
     fn(classify,
        [clause([v('X')], [[call(erlang, is_integer, [v('X')]), {op, 4, '>', v('X'), i(10)}],
                           [{op, 4, '=:=', v('X'), a(big)}]],
                [a(big)]),
         clause([{cons, 5, v('H'), v('_')}], [],
                [{'case', 5, v('H'),
                  [clause([{char, 5, $a}], [], [{string, 5, "starts with a"}]),
                   clause([v('_')], [], [{'if', 5, [clause([], [[{op, 5, '<', v('H'), i(0)}]], [a(neg)]),
                                                    clause([], [[a(true)]], [a(other)])]}])]}]),
         clause([v('X')], [], [{op, 6, '-', v('X')}])]),
     fn(records,
        [clause([], [],
                [{match, 7, v('R'), {record, 7, pt, [{record_field, 7, a(y), i(5)}]}},
                 {match, 7, v('R2'), {record, 7, v('R'), pt, [{record_field, 7, a(x), i(9)}]}},
                 {tuple, 7, [v('R'), v('R2'), {record_field, 7, v('R2'), pt, a(x)},
                             {record_index, 7, pt, a(y)}]}])]),
     fn(bins,
        [clause([{bin, 8, [{bin_element, 8, v('A'), i(8), default},
                           {bin_element, 8, v('Rest'), default, [binary]}]}], [],
                [{bin, 8, [{bin_element, 8, v('Rest'), default, [binary]},
                           {bin_element, 8, {op, 8, '+', v('A'), i(1)}, i(16), [little, unsigned]},
                           {bin_element, 8, {string, 8, "ok"}, default, default}]}])]),
     fn(funs,
        [clause([], [],
                [{match, 9, v('F'), {'fun', 9, {clauses, [clause([v('X')], [], [{op, 9, '*', v('X'), i(2)}])]}}},
                 {match, 9, v('Fact'), {named_fun, 9, 'Fact',
                                        [clause([i(0)], [], [i(1)]),
                                         clause([v('N')], [], [{op, 9, '*', v('N'),
                                                                {call, 9, v('Fact'), [{op, 9, '-', v('N'), i(1)}]}}])]}},
                 {match, 9, v('G'), {'fun', 9, {function, a(lists), a(reverse), i(1)}}},
                 {match, 9, v('H'), {'fun', 9, {function, classify, 1}}},
                 {tuple, 9, [{call, 9, v('F'), [i(21)]}, {call, 9, v('Fact'), [i(5)]},
                             {call, 9, v('G'), [{string, 9, "abc"}]},
                             {call, 9, v('H'), [a(big)]}]}])]),
     fn(comp,
        [clause([v('L')], [],
                [{tuple, 10,
                  [{lc, 10, {op, 10, '*', v('X'), v('X')},
                    [{generate, 10, v('X'), v('L')}, {op, 10, '>', v('X'), i(1)}]},
                   {bc, 10, {bin, 10, [{bin_element, 10, v('B'), default, default}]},
                    [{b_generate, 10, {bin, 10, [{bin_element, 10, v('B'), i(8), default}]},
                      {bin, 10, [{bin_element, 10, {string, 10, "xyz"}, default, default}]}}]},
                   {block, 10, [{match, 10, v('Y'), i(3)}, {op, 10, 'rem', v('Y'), i(2)}]}]}])]),
     fn(tries,
        [clause([v('X')], [],
                [{'try', 11, [call(erlang, element, [i(1), v('X')])],
                  [clause([a(ok)], [], [a(was_ok)]), clause([v('Other')], [], [{tuple, 11, [a(got), v('Other')]}])],
                  [clause([{tuple, 11, [a(error), a(badarg), v('_')]}], [], [a(badarg)]),
                   clause([{tuple, 11, [v('C'), v('R'), v('_')]}], [[call(erlang, is_atom, [v('C')])]],
                          [{tuple, 11, [v('C'), v('R')]}])],
                  [call(erlang, put, [a(after_ran), a(yes)])]},
                 {'catch', 11, call(erlang, throw, [a(thrown)])}])]),
     fn(recv,
        [clause([], [],
                [{op, 12, '!', call(erlang, self, []), {tuple, 12, [a(msg), i(1)]}},
                 {'receive', 12, [clause([{tuple, 12, [a(msg), v('N')]}], [], [v('N')])]},
                 {'receive', 12, [clause([v('_')], [], [a(unexpected)])], i(0), [a(timeout)]}])]),
     fn(maps,
        [clause([{map, 13, [{map_field_exact, 13, a(k), v('V')}]}], [],
                [{map, 13, {map, 13, [{map_field_assoc, 13, a(k), v('V')}]},
                  [{map_field_exact, 13, a(k), {op, 13, '+', v('V'), i(1)}},
                   {map_field_assoc, 13, {string, 13, "s"}, {float, 13, 1.5}}]}])]),
     {eof, 14}].

reason({'EXIT', {R, _Stack}}) -> R;
reason(V) -> V.

main() ->
    {ok, gen_by_hand, Bin, _Warnings} = compile:forms(forms(), [return]),
    io:format("exported before load: ~p~n", [erlang:function_exported(gen_by_hand, comp, 1)]),
    {module, gen_by_hand} = code:load_binary(gen_by_hand, "gen.erl", Bin),
    io:format("~p~n", [[gen_by_hand:classify(X) || X <- [11, big, "abc", [-1], [5], 4]]]),
    io:format("~p~n", [gen_by_hand:records()]),
    io:format("~p~n", [gen_by_hand:bins(<<7, "tail">>)]),
    io:format("~p~n", [gen_by_hand:funs()]),
    io:format("~p~n", [gen_by_hand:comp([1, 2, 3])]),
    io:format("~p~n", [[gen_by_hand:tries(X) || X <- [{ok}, {2}, not_a_tuple]]]),
    io:format("~p ~p~n", [get(after_ran), gen_by_hand:recv()]),
    io:format("~p~n", [gen_by_hand:maps(#{k => 1})]),
    io:format("~p~n", [reason(catch gen_by_hand:maps(#{}))]),
    %% Bad forms: an expression that is no expression, a form that is no form.
    Bad1 = [{attribute, 1, module, bad},
            {function, 1, f, 0, [{clause, 1, [], [], [{no_such_expr, 1}]}]}],
    Bad2 = [{attribute, 1, module, bad}, {not_a_form, 1}],
    io:format("~p ~p~n", [compile:forms(Bad1, []), compile:forms(Bad2, [])]),
    {error, [_ | _], []} = compile:forms(Bad2, [return_errors]),
    io:format("loading a binary under another name: ~p~n",
              [code:load_binary(other_name, "x.erl", Bin)]),
    io:format("loading junk: ~p~n", [code:load_binary(junk, "x.erl", <<"junk">>)]),
    ok.
