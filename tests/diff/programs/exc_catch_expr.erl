%% Checks: the value of `catch Expr` for throw, error ({'EXIT',{Reason,Stack}}, only Reason printed), exit ({'EXIT',Reason}), normal value.
-module(exc_catch_expr).
-export([main/0]).

show({'EXIT', {Reason, Stack}}) when is_list(Stack) -> {exit_with_stack, Reason};
show({'EXIT', Reason}) -> {exit, Reason};
show(Other) -> {value, Other}.

main() ->
    io:format("~p~n", [show(catch 1 + 1)]),
    io:format("~p~n", [show(catch throw(thrown_value))]),
    io:format("~p~n", [show(catch throw({'EXIT', fake}))]),
    io:format("~p~n", [show(catch error(boom))]),
    io:format("~p~n", [show(catch exit(went_away))]),
    io:format("~p~n", [show(catch exit({shutdown, x}))]),
    io:format("~p~n", [show(catch list_to_atom(42))]),
    io:format("~p~n", [show(catch (list_to_integer("1") + a))]),
    X = (catch 5),
    io:format("~p~n", [X]),
    L = [catch throw(N) || N <- [1, 2, 3]],
    io:format("~p~n", [L]),
    case catch lists:nth(10, [1]) of
        {'EXIT', {function_clause, _}} -> io:format("nth function_clause~n");
        {'EXIT', {R, _}} -> io:format("nth other ~p~n", [R])
    end,
    catch ok.
