%% Checks: io_lib:format with ~s ~w ~p ~c ~i ~n ~~ ~e ~f ~g, field width, precision, padding char.
-module(fmt_directives).
-export([main/0]).

f(Fmt, Args) ->
    io:format("~s|~n", [io_lib:format(Fmt, Args)]).

main() ->
    f("~s", ["plain"]),
    f("~10s", ["right"]),
    f("~-10s", ["left"]),
    f("~3s", ["truncated"]),
    f("~10.3s", ["abcdef"]),
    f("~s", [<<"binary">>]),
    f("~s", [[$a, ["bc", <<"d">>]]]),
    f("~c~c~c", [$x, $y, $z]),
    f("~5c", [$*]),
    f("~i~w", [ignored, shown]),
    f("~~", []),
    f("~e", [3.14159]),
    f("~.3e", [31415.9]),
    f("~f", [3.14159]),
    f("~.2f", [2.005]),
    f("~.1f", [2.25]),
    f("~10.3f", [-1.5]),
    f("~-10.3f", [1.5]),
    f("~g", [0.0001]),
    f("~g", [123.0]),
    f("~g", [1.0e10]),
    f("~.3g", [1234.5]),
    f("~10.2.xf", [1.5]),
    f("~10.2.*f", [$_, 1.5]),
    f("~*s", [6, "ab"]),
    f("~*.*f", [8, 3, 2.0]),
    f("~w ~p", [1.0, 1.0]),
    f("~10w|~-10w", [abc, abc]),
    f("~5w", [123456789]),
    f("~4.1.0w", [7]),
    f("~.10b", [-42]),
    lists:flatten(io_lib:format("~p-~s-~w", [a, "b", "c"])).
