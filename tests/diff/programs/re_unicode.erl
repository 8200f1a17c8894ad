-module(re_unicode).
-export([main/0]).

%% Checks: re with the unicode option: UTF-8 binaries and character lists
%% as subject and pattern, byte offsets in results, list captures as
%% characters, '.' and classes stepping by characters, caseless non-ASCII,
%% \x{...} escapes, replace/split over unicode text, badarg on bad UTF-8.
main() ->
    P = fun(X) -> io:format("~p~n", [X]) end,
    S = <<"caf\xc3\xa9 na\xc3\xafve \xe2\x82\xac5">>,
    P(re:run(S, "\\w+", [unicode, global])),
    P(re:run(S, "f.", [unicode, {capture, all, list}])),
    P(re:run(S, "f.", [{capture, all, list}])),
    P(re:run(S, "f.", [unicode, {capture, all, binary}])),
    P(re:run([233, 8364], ".", [unicode, global, {capture, all, list}])),
    P(re:run([233, 8364], "\\x{20ac}", [unicode])),
    P(re:run("caf" ++ [233], [233], [unicode])),
    P(re:run(<<"\xc3\x89t\xc3\xa9">>, <<"\xc3\xa9">>, [unicode, caseless, global])),
    P(re:run(S, "[^a-z ]+", [unicode, global, {capture, all, list}])),
    P(re:replace(S, "\\s", "_", [unicode, global, {return, list}])),
    P(re:replace(S, "\\s", "_", [unicode, global, {return, binary}])),
    P(re:split(S, " ", [unicode, {return, list}])),
    P(re:split(S, " ", [unicode, {return, binary}])),
    P(re:run(<<"\xc3\xa9t\xc3\xa9 x">>, "[[:alpha:]]+\\b", [unicode, {capture, all, binary}])),
    P(re:run(<<"\xe9t\xe9 \xc9T\xc9">>, "\\w+ \xe9t\xe9", [caseless])),
    P(re:run([16#100, 16#101], [16#101, 16#100], [unicode, caseless])),
    P(re:run([181, $a], "\\w\\W", [unicode])),
    P(re:run(S, "(?<=\xc3\xa9) ", [unicode])),
    P(try re:run(<<255, 0>>, "a", [unicode]) catch C:R -> {C, R} end),
    P(re:run(<<255, 0>>, "\\x{ff}")),
    P(re:run(S, "^.{4}", [unicode, {capture, all, index}])),
    P(re:run(S, "^.{4}", [{capture, all, index}])),
    ok.
