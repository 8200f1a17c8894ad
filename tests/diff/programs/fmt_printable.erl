%% Checks: ~p prints lists of printable latin1 chars as strings, nested lists, escapes, non-printables, ~w never does.
-module(fmt_printable).
-export([main/0]).

main() ->
    Vals = ["hello", [104, 105], [], [0], "tab\there", "nl\nx", "quote\"s", "back\\slash",
            [7, 8, 27], "esc\e", [$a, 200], [$a, 255], [$a, 256], [$a, -1],
            ["abc", "def"], [["x"]], {"in", "tuple"}, [$a | "bc"], "a" ++ [1],
            [$\s, $~], "\r\f\v", [127], [160], "multi word string"],
    lists:foreach(fun(V) -> io:format("~p~n", [V]) end, Vals),
    lists:foreach(fun(V) -> io:format("~w~n", [V]) end, ["abc", [200]]),
    io:format("~p~n", [[$a, $b | $c]]),
    io:format("~p~n", [#{"key" => "val"}]),
    {"result", [65, 66]}.
