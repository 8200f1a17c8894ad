-module(re_compile).
-export([main/0]).

%% Checks: re:compile/1,2 results (group count, unicode flag; the compiled
%% binary is racewit's own and never printed), running a compiled pattern,
%% inspect/2, compile-only options with a compiled pattern, and PCRE's
%% error messages and offsets for bad patterns.
main() ->
    P = fun(X) -> io:format("~p~n", [X]) end,
    E = fun(F) -> try F() catch C:R -> {C, R} end end,
    Shape = fun({ok, {re_pattern, N, U, C, B}}) when is_binary(B) -> {ok, N, U, C};
               (Other) -> Other end,
    P(Shape(re:compile("(a)(?:b)(?<n>c)"))),
    P(Shape(re:compile("abc", [unicode, caseless]))),
    P(Shape(re:compile(<<"x">>, [no_auto_capture]))),
    {ok, MP} = re:compile("(\\d+)-(\\d+)", []),
    P(re:run("tel 12-345", MP)),
    P(re:run("tel 12-345", MP, [{capture, all_but_first, list}])),
    P(re:run("1-2 3-4", MP, [global, {capture, [2], binary}])),
    P(re:replace("1-2 3-4", MP, "\\2-\\1", [global, {return, list}])),
    P(re:split("x1-2y3-4z", MP, [{return, list}])),
    {ok, CI} = re:compile("abc", [caseless]),
    P(re:run("xABC", CI)),
    P(E(fun() -> re:run("xABC", CI, [caseless]) end)),
    P(re:run("xABC", CI, [anchored])),
    {ok, Named} = re:compile("(?<year>\\d{4})-(?<mon>\\d\\d)"),
    P(re:inspect(Named, namelist)),
    P(re:run("on 2024-05", Named, [{capture, all_names, list}])),
    P(re:run("on 2024-05", Named, [{capture, [year], list}])),
    P(re:version()),
    lists:foreach(fun(Re) -> P({Re, Shape(re:compile(Re))}) end,
                  ["(", "*", "a**", "[a", ")", "[z-a]", "a\\", "(?<n>a)(?<n>b)",
                   "a{2,1}", "(?<=a+)b", "(?z)", "[[:foo:]]", "ab)", "(?<=x|yy)z",
                   "\\2(a)", "x{99999}", "(a|b", "?a", "a|*",
                   "{2}", "a{2}{2}", "[:alpha:]", "[a-[:digit:]]", "(?i", "(?-",
                   "(?<=\\(?-i)\\", "\\L", "x\\u"]),
    P(Shape(re:compile("(?i--)\\i\\y"))),
    P(re:run("iy", "(?i--)\\i\\y")),
    P(E(fun() -> re:compile(<<"a">>, [bogus]) end)),
    P(E(fun() -> re:compile(an_atom) end)),
    ok.
