%% Checks: a three-stage process pipeline (parse -> square -> sum); order through each stage is preserved; final sink reports its totals.
-module(conc_pipeline_stages).
-export([main/0]).

stage(F, Next) ->
    receive
        eof -> Next ! eof;
        X -> Next ! F(X), stage(F, Next)
    end.

sink(Acc, Main) ->
    receive
        eof -> Main ! {sink, lists:reverse(Acc)};
        X -> sink([X | Acc], Main)
    end.

main() ->
    Main = self(),
    Sink = spawn(fun() -> sink([], Main) end),
    Sq = spawn(fun() -> stage(fun(X) -> X * X end, Sink) end),
    Parse = spawn(fun() -> stage(fun list_to_integer/1, Sq) end),
    [Parse ! S || S <- ["3", "1", "4", "1", "5", "9", "2", "6"]],
    Parse ! eof,
    Out = receive {sink, L} -> L end,
    io:format("~p~n", [Out]),
    lists:sum(Out).
