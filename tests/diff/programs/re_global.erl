-module(re_global).
-export([main/0]).

%% Checks: re:run/3 with global: every match, empty matches (retried at the
%% same offset with notempty_atstart and anchored, then one character on),
%% capture specs and types under global, offsets, unicode steps.
main() ->
    P = fun(X) -> io:format("~p~n", [X]) end,
    P(re:run("a1b22c333", "\\d+", [global])),
    P(re:run("a1b22c333", "\\d+", [global, {capture, all, list}])),
    P(re:run("a1b22c333", "(\\d)(\\d)?", [global, {capture, all, binary}])),
    P(re:run("a1b22c333", "[a-z](\\d)", [global, {capture, all_but_first, list}])),
    P(re:run("a1b22c333", "\\d", [global, {capture, first, index}])),
    P(re:run("a1b22c333", "\\d", [global, {capture, none}])),
    P(re:run("abc", "x", [global])),
    P(re:run("aaa", "", [global])),
    P(re:run("abc", "x*", [global, {capture, all, list}])),
    P(re:run("baaac", "a*", [global])),
    P(re:run("abc", "a|", [global])),
    P(re:run("ab\ncd\n", "^", [global, multiline])),
    P(re:run("ab\ncd\n", "$", [global, multiline])),
    P(re:run("ab\ncd", "(?m)^\\w", [global, {capture, all, list}])),
    P(re:run("one two  three", "\\b", [global])),
    P(re:run("xaxbxc", "x", [global, {offset, 2}])),
    P(re:run(<<"é-é"/utf8>>, "", [global, unicode])),
    P(re:run(<<"é-é"/utf8>>, "", [global])),
    P(re:run("aaaa", "a*?", [global])),
    P(re:run("abab", "(?=b)", [global])),
    P(re:run("aaa", "a", [global, notempty])),
    ok.
