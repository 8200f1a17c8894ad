%% Checks: column layout with io_lib:format padding directives (~-Ns, ~Nw, ~N.Df, ~N..cB) building a small report.
-module(fmt_table_layout).
-export([main/0]).

row({Name, Qty, Price}) ->
    io_lib:format("~-10s~5w ~8.2f ~6..0B~n", [Name, Qty, Price, Qty * 7]).

main() ->
    Items = [{"apples", 3, 1.5}, {"kiwis", 12, 0.25}, {"watermelon", 1, 4.0}, {"x", 1000, 12.345}],
    io:format("~-10s~5s ~8s ~6s~n", ["name", "qty", "price", "code"]),
    io:format("~s~n", [lists:duplicate(32, $-)]),
    [io:put_chars(row(I)) || I <- Items],
    Total = lists:sum([Q * P || {_, Q, P} <- Items]),
    io:format("~-16s~8.2f~n", ["total", Total]),
    io:format("~s~n", [io_lib:format("[~5.1.*f]", [$#, 3.14159])]),
    io:format("[~*.*.*s]~n", [10, 3, $., "abcdef"]),
    Total.
