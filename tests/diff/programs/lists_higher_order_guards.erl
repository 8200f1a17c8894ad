%% Checks: OTP's lists higher-order functions check the fun before the list: function_clause for a non-fun or a fun of the wrong arity (even with an empty list), {case_clause, L} when map/foldl get no list, function_clause at an improper tail, bad_filter/case_clause for non-boolean predicates.
-module(lists_higher_order_guards).
-export([main/0]).

reason(G) -> try G() of V -> {ok, V} catch error:E -> E end.

main() ->
    Id = fun(X) -> X end,
    Add = fun(X, A) -> X + A end,
    Calls = [
      fun() -> lists:map(not_fun, [1]) end,
      fun() -> lists:map(Add, [1]) end,
      fun() -> lists:map(not_fun, []) end,
      fun() -> lists:map(Id, improper) end,
      fun() -> lists:map(Id, [1 | improper]) end,
      fun() -> lists:map(Id, []) end,
      fun() -> lists:foldl(Add, 0, improper) end,
      fun() -> lists:foldl(Add, 0, [1 | improper]) end,
      fun() -> lists:foldl(not_fun, 0, []) end,
      fun() -> lists:foldl(Id, 0, [1]) end,
      fun() -> lists:foldr(not_fun, 0, []) end,
      fun() -> lists:foldr(Add, 0, improper) end,
      fun() -> lists:filter(fun(_) -> maybe end, [1]) end,
      fun() -> lists:filter(not_fun, []) end,
      fun() -> lists:filter(fun(_) -> true end, improper) end,
      fun() -> lists:all(fun(_) -> true end, [a | b]) end,
      fun() -> lists:any(fun(_) -> false end, [a | b]) end,
      fun() -> lists:any(fun(_) -> maybe end, [a]) end,
      fun() -> lists:all(fun(_) -> maybe end, [a]) end,
      fun() -> lists:foreach(fun(_) -> ok end, [a | b]) end,
      fun() -> lists:foreach(not_fun, []) end,
      fun() -> lists:flatmap(fun(X) -> [X] end, improper) end,
      fun() -> lists:mapfoldl(fun(X, A) -> {X, A} end, 0, improper) end,
      fun() -> lists:filtermap(fun(_) -> maybe end, [1]) end,
      fun() -> lists:takewhile(fun(_) -> maybe end, [1]) end,
      fun() -> lists:partition(fun(_) -> maybe end, [1]) end,
      fun() -> lists:sort(not_fun, [1]) end,
      fun() -> lists:keymap(Id, 0, [{a}]) end,
      fun() -> lists:zipwith(fun(X, Y) -> {X, Y} end, [1], [1, 2]) end,
      fun() -> lists:search(fun(_) -> maybe end, [1]) end,
      fun() -> lists:foldl(Add, 0, [1, 2, 3]) end,
      fun() -> lists:map(fun(X) -> X * 2 end, [1, 2, 3]) end
    ],
    [reason(C) || C <- Calls].
