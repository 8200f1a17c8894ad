%% Checks: building strings with ++, io_lib:format, integer_to_list, iolists, lists:flatten; char arithmetic; string comparison.
-module(string_building).
-export([main/0]).

csv_row(Fields) -> lists:join(",", [to_s(F) || F <- Fields]).

to_s(F) when is_integer(F) -> integer_to_list(F);
to_s(F) when is_atom(F) -> atom_to_list(F);
to_s(F) when is_float(F) -> float_to_list(F, [{decimals, 2}]);
to_s(F) when is_list(F) -> F.

caesar(S, K) -> [if C >= $a, C =< $z -> $a + (C - $a + K) rem 26; true -> C end || C <- S].

main() ->
    Row = csv_row([1, abc, 2.5, "str"]),
    io:format("~p~n", [Row]),
    io:format("~s~n", [Row]),
    io:format("~p~n", [lists:flatten(Row)]),
    io:format("~p~n", [caesar("hello, world", 3)]),
    io:format("~p~n", [caesar(caesar("round trip", 13), 13)]),
    io:format("~p~n", ["abc" < "abd"]),
    io:format("~p~n", ["abc" < "abcd"]),
    io:format("~p~n", ["Z" < "a"]),
    io:format("~p~n", [[$a + 1, $z - 25]]),
    Table = [io_lib:format("~-6s|~4w~n", [Name, N]) || {Name, N} <- [{"ann", 1}, {"bob", 22}, {"cy", 333}]],
    io:put_chars(Table),
    IoList = ["<", [<<"tag">>, $>], "body", [["</"], "tag>"]],
    io:format("~s~n", [IoList]),
    io:format("~p~n", [iolist_to_binary(IoList)]),
    length(lists:flatten(Table)).
